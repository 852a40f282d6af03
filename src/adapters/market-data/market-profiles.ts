/**
 * How each symbol's synthetic market looks: the quoted spread, the depth at the touch, the traded
 * volume and how much it moves relative to the market. Real books differ by an order of magnitude
 * between BTC and an alt, and a paper run that gives every symbol the same deep, tight book
 * understates what trading alts costs. The figures are rough orders of magnitude read off
 * Binance USDⓈ-M perpetual books and 24 h volumes in 2024 (normal hours, not the busiest or the
 * quietest), not a claim about any particular day; a symbol not in the table gets the fallback, a
 * thin mid-cap book. The feed's `profiles` option overrides any of them per symbol.
 */

export interface SymbolProfile {
  /** Typical bid/ask spread in basis points of price in a normal regime (never less than a tick). */
  spreadBps: number;
  /** Quote notional resting at the best level in a normal regime, before noise. */
  topNotional: number;
  /** Quote notional traded per 60 s in a normal regime, before noise. */
  volumeNotional: number;
  /** Volatility relative to the market factor (BTC = 1). */
  volScale: number;
}

export const SYMBOL_PROFILES: Readonly<Record<string, SymbolProfile>> = {
  BTCUSDT: { spreadBps: 0.2, topNotional: 400_000, volumeNotional: 6_000_000, volScale: 1 },
  ETHUSDT: { spreadBps: 0.4, topNotional: 250_000, volumeNotional: 3_000_000, volScale: 1.2 },
  SOLUSDT: { spreadBps: 1, topNotional: 100_000, volumeNotional: 1_000_000, volScale: 1.6 },
  BNBUSDT: { spreadBps: 1.5, topNotional: 60_000, volumeNotional: 400_000, volScale: 1.1 },
  XRPUSDT: { spreadBps: 1.5, topNotional: 80_000, volumeNotional: 600_000, volScale: 1.4 },
};

export const FALLBACK_PROFILE: SymbolProfile = {
  spreadBps: 3,
  topNotional: 25_000,
  volumeNotional: 300_000,
  volScale: 1.5,
};

/** The table's (or the fallback's) profile for `symbol` with `override` on top, checked. */
export function profileFor(symbol: string, override?: Partial<SymbolProfile>): SymbolProfile {
  const profile = { ...(SYMBOL_PROFILES[symbol] ?? FALLBACK_PROFILE), ...override };
  for (const [key, value] of Object.entries(profile)) {
    if (!(Number.isFinite(value) && value > 0)) throw new RangeError(`profile ${key} for ${symbol} must be positive`);
  }
  return profile;
}

/**
 * The instrument whitelist from `SYMBOLS`: comma-separated `SYMBOL` or `SYMBOL:perp|spot`
 * (perp when omitted), e.g. `BTCUSDT,ETHUSDT,SOLUSDT:spot`. Lot size, tick size and minimum
 * notional come from a small built-in table, with conservative defaults for other symbols.
 */
import type { Instrument, InstrumentKind } from './market.js';

export const DEFAULT_SYMBOLS = 'BTCUSDT,ETHUSDT,SOLUSDT';

const KNOWN: Record<string, { lotSize: number; tickSize: number; minNotional: number }> = {
  BTCUSDT: { lotSize: 0.001, tickSize: 0.1, minNotional: 5 },
  ETHUSDT: { lotSize: 0.001, tickSize: 0.01, minNotional: 5 },
  SOLUSDT: { lotSize: 0.01, tickSize: 0.001, minNotional: 5 },
  BNBUSDT: { lotSize: 0.01, tickSize: 0.01, minNotional: 5 },
  XRPUSDT: { lotSize: 0.1, tickSize: 0.0001, minNotional: 5 },
};
const FALLBACK = { lotSize: 0.001, tickSize: 0.0001, minNotional: 5 };

const SYMBOL_PATTERN = /^[A-Z0-9]{2,20}$/;

/** The built-in steps of `symbol` (or the conservative defaults): for a held symbol SYMBOLS no longer lists. */
export function instrumentOf(symbol: string, kind: InstrumentKind): Instrument {
  return { symbol, kind, ...(KNOWN[symbol] ?? FALLBACK) };
}

/** Parses the whitelist; throws with a message naming the bad entry. */
export function parseInstruments(spec: string): Instrument[] {
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (entries.length === 0) throw new Error('SYMBOLS is empty: list at least one symbol, e.g. BTCUSDT,ETHUSDT');
  const seen = new Set<string>();
  return entries.map((entry) => {
    const [rawSymbol = '', rawKind = 'perp', ...rest] = entry.split(':');
    const symbol = rawSymbol;
    if (rest.length === 0 && symbol !== symbol.toUpperCase() && SYMBOL_PATTERN.test(symbol.toUpperCase())) {
      // Refused rather than upper-cased: a whitelist of what may trade must be exactly what was typed.
      throw new Error(`SYMBOLS entry "${entry}": symbols are upper case, e.g. ${symbol.toUpperCase()}`);
    }
    if (rest.length > 0 || !SYMBOL_PATTERN.test(symbol)) {
      throw new Error(`SYMBOLS entry "${entry}" is not SYMBOL or SYMBOL:perp|spot (letters and digits, e.g. BTCUSDT)`);
    }
    if (rawKind !== 'perp' && rawKind !== 'spot') {
      throw new Error(`SYMBOLS entry "${entry}": kind must be perp or spot`);
    }
    if (seen.has(symbol)) throw new Error(`SYMBOLS lists ${symbol} twice`);
    seen.add(symbol);
    return instrumentOf(symbol, rawKind as InstrumentKind);
  });
}

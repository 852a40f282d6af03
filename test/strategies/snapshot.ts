/**
 * Snapshot and instrument builders for strategy tests: only `closes`, `symbol` and `fundingRate`
 * matter to the built-in strategies, the rest is plausible filler.
 */
import type { Instrument, MarketSnapshot } from '../../src/domain/market.js';

export const PERP: Instrument = { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
export const SPOT: Instrument = { symbol: 'SOLUSDT', kind: 'spot', lotSize: 0.01, tickSize: 0.001, minNotional: 5 };

export function snapshot(closes: number[], overrides: Partial<MarketSnapshot> = {}): MarketSnapshot {
  const last = closes[closes.length - 1] ?? 100;
  return {
    symbol: 'BTCUSDT',
    ts: 1_700_000_000_000,
    last,
    bid: last - 0.1,
    ask: last + 0.1,
    bids: [{ price: last - 0.1, qty: 5 }],
    asks: [{ price: last + 0.1, qty: 5 }],
    closes,
    volume: 100,
    fundingRate: 0.0001,
    nextFundingTs: 1_700_000_000_000 + 3_600_000,
    ...overrides,
  };
}

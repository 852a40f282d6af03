/**
 * Snapshot and instrument builders for strategy tests: what `analyse` receives (a StrategySnapshot
 * built the way the agent actor builds it), from closes one minute apart; `symbol`, `fundingRate`
 * and `position` are what the built-ins read, the rest is plausible filler.
 */
import { barsFromCloses } from '../../src/domain/bars.js';
import type { Instrument, MarketSnapshot } from '../../src/domain/market.js';
import type { StrategySnapshot } from '../../src/domain/strategy-agent.js';
import { strategySnapshot } from '../../src/domain/strategy-input.js';

export const PERP: Instrument = { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
export const SPOT: Instrument = { symbol: 'SOLUSDT', kind: 'spot', lotSize: 0.01, tickSize: 0.001, minNotional: 5 };

export function marketSnapshot(closes: number[], overrides: Partial<MarketSnapshot> = {}): MarketSnapshot {
  const last = closes[closes.length - 1] ?? 100;
  return {
    symbol: 'BTCUSDT',
    ts: 1_700_000_000_000,
    last,
    bid: last - 0.1,
    ask: last + 0.1,
    bids: [{ price: last - 0.1, qty: 5 }],
    asks: [{ price: last + 0.1, qty: 5 }],
    bars: barsFromCloses(closes),
    volume: 100,
    fundingRate: 0.0001,
    nextFundingTs: 1_700_000_000_000 + 3_600_000,
    ...overrides,
  };
}

export function snapshot(
  closes: number[],
  overrides: Partial<MarketSnapshot> & { position?: number; nav?: number } = {},
): StrategySnapshot {
  const { position = 0, nav = 10_000, ...market } = overrides;
  return strategySnapshot(marketSnapshot(closes, market), null, position, nav);
}

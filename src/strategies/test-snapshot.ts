/**
 * A StrategySnapshot built from candles, for a strategy's own tests: what `analyse` is handed in a
 * run (the same read-only copies, via strategySnapshot), with a one-tick book around the last close.
 * Public through the strategy entry (public.ts) so a user's test needs no internal path.
 */
import type { Bars } from '../domain/bars.js';
import type { MarketSnapshot } from '../domain/market.js';
import type { StrategySnapshot } from '../domain/strategy-agent.js';
import { strategySnapshot } from '../domain/strategy-input.js';

/** What a test may set; every field has a plain default. */
export interface TestSnapshotOptions {
  /** Default `BTCUSDT`. */
  symbol?: string;
  /** The declared timeframe's candles (`snapshot.higher`); default null (no timeframe declared). */
  higher?: Bars | null;
  /** This agent's position, signed base units; default 0. */
  position?: number;
  /** The account's NAV, USDT; default 10,000. */
  nav?: number;
  /** Perpetual funding rate per interval; default null (spot). */
  fundingRate?: number | null;
  /** Half the bid–ask spread, in price units, around the last close; default 0.1. */
  halfSpread?: number;
}

/**
 * The snapshot `analyse` receives when `candles` are the feed's candles (the last one just closed):
 * `last` is the last close, the book one level each side at ± `halfSpread`, `ts` the end of the last
 * bar (its open time plus the step between the last two bars, or one minute).
 */
export function testSnapshot(candles: Bars, options: TestSnapshotOptions = {}): StrategySnapshot {
  const n = candles.length;
  if (n === 0) throw new RangeError('testSnapshot needs at least one candle');
  const last = candles.close[n - 1]!;
  const half = options.halfSpread ?? 0.1;
  const step = n > 1 ? candles.time[n - 1]! - candles.time[n - 2]! : 60_000;
  let volume = 0;
  for (let i = Math.max(0, n - 60); i < n; i++) volume += candles.volume[i]!;
  const market: MarketSnapshot = {
    symbol: options.symbol ?? 'BTCUSDT',
    ts: candles.time[n - 1]! + step,
    last,
    bid: last - half,
    ask: last + half,
    bids: [{ price: last - half, qty: 5 }],
    asks: [{ price: last + half, qty: 5 }],
    bars: candles,
    volume,
    fundingRate: options.fundingRate ?? null,
    nextFundingTs: null,
  };
  return strategySnapshot(market, options.higher ?? null, options.position ?? 0, options.nav ?? 10_000);
}

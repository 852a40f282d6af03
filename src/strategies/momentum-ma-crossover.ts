/**
 * `momentum_ma_crossover`: the fast/slow simple moving averages of the closes, on `timeframe` candles.
 * By default (`trend`) it holds a target: every cycle it says long (+1) while the fast SMA is above
 * the slow one and short (−1) while below, with a strength (confidence) that grows with the spread
 * between them, so the allocator keeps the position at that target and a restarted process or a
 * dropped cycle loses nothing. `cross` mode signals only on the cycle the averages cross (a one-bar
 * event) and the position is held until the next cross flips it.
 *
 * Confidence, on the scale every agent shares (signal.ts: the share of the full risk budget it wants):
 * the normalised spread |fast − slow| / slow divided by `spreadForFullConfidence`, clamped to [0, 1],
 * so a well-separated trend commits the whole budget. In `trend` mode a spread below `minSpread`
 * is no edge (null: the position is held), so averages that touch do not flip it. In `cross` mode the
 * spread has only just opened, so a cross never counts for less than `crossFloor` (0.25, a quarter of
 * the budget, strictly above the allocator's no-trade band of 0.2).
 *
 * Defaults: 15-minute candles, SMA 8 vs 32 (2 h vs 8 h), trend mode, full confidence at a 1 % spread,
 * no edge below 0.1 %. Measured on the synthetic market (BENCHMARKS.md, issue 19) to turn over a few
 * times NAV a day, where one-minute crosses turned over 107× NAV in 14 days.
 */
import { clamp, sma } from '../domain/indicators.js';
import type { Instrument } from '../domain/market.js';
import type { Signal } from '../domain/signal.js';
import { requireNumber, resolveParams } from './strategy.js';
import type { StrategyAgent, StrategyFactory, StrategySnapshot } from '../domain/strategy-agent.js';
import { TIMEFRAME_LIST, TIMEFRAMES } from '../domain/timeframes.js';

export const MOMENTUM_MA_CROSSOVER = 'momentum_ma_crossover';

export interface MomentumMaCrossoverParams {
  /** Closes in the fast SMA (integer ≥ 1, < slow). */
  fast: number;
  /** Closes in the slow SMA (integer > fast). */
  slow: number;
  /**
   * `trend`: signal every cycle while fast and slow stay apart (needs `slow` closes).
   * `cross`: signal only on the cycle where the fast SMA crosses the slow one (needs `slow + 1`
   * closes, to compare with the previous cycle).
   */
  mode: 'cross' | 'trend';
  /** Normalised spread |fast − slow| / slow at which confidence reaches 1 (> 0). */
  spreadForFullConfidence: number;
  /** Least confidence of a signal in cross mode, in [0, 1]. */
  crossFloor: number;
  /** Trend mode: a normalised spread at or below this is no edge (null), in [0, spreadForFullConfidence). */
  minSpread: number;
  /** Candles the averages are taken over (`1m`, `5m`, `15m`, `1h`, …), resampled from the feed's. */
  timeframe: string;
}

/** See the module comment. */
export const DEFAULT_MOMENTUM_MA_CROSSOVER_PARAMS: Readonly<MomentumMaCrossoverParams> = Object.freeze({
  fast: 8,
  slow: 32,
  mode: 'trend',
  spreadForFullConfidence: 0.01,
  crossFloor: 0.25,
  minSpread: 0.001,
  timeframe: '15m',
});

export const createMomentumMaCrossover: StrategyFactory<MomentumMaCrossoverParams> = (params) => {
  const p = validate(resolveParams(MOMENTUM_MA_CROSSOVER, DEFAULT_MOMENTUM_MA_CROSSOVER_PARAMS, params));
  return {
    name: MOMENTUM_MA_CROSSOVER,
    parameters: Object.keys(DEFAULT_MOMENTUM_MA_CROSSOVER_PARAMS),
    // Cross mode compares with the previous bar's averages: one bar more.
    lookback: p.mode === 'cross' ? p.slow + 1 : p.slow,
    timeframe: p.timeframe,
    analyse: (snapshot: StrategySnapshot, _instrument: Instrument): Signal | null => analyse(p, snapshot),
  } satisfies StrategyAgent;
};

function analyse(p: MomentumMaCrossoverParams, snapshot: StrategySnapshot): Signal | null {
  const closes = (snapshot.higher ?? snapshot.candles).close;
  const fast = sma(closes, p.fast);
  const slow = sma(closes, p.slow);
  if (fast === null || slow === null || !Number.isFinite(fast) || !Number.isFinite(slow) || slow <= 0) return null;
  const direction = Math.sign(fast - slow);
  if (direction === 0) return null;

  if (p.mode === 'cross') {
    // The previous cycle's averages: the same windows shifted back by one close.
    const prevFast = sma(closes, p.fast, closes.length - 1);
    const prevSlow = sma(closes, p.slow, closes.length - 1);
    if (prevFast === null || prevSlow === null || !Number.isFinite(prevFast) || !Number.isFinite(prevSlow)) return null;
    // A cross is a change of side; touching (equal) last cycle and separating now counts as one.
    if (Math.sign(prevFast - prevSlow) === direction) return null;
  }

  const spread = Math.abs(fast - slow) / slow;
  if (p.mode === 'trend' && spread <= p.minSpread) return null;
  const confidence = clamp(spread / p.spreadForFullConfidence, p.mode === 'cross' ? p.crossFloor : 0, 1);
  const relation = direction > 0 ? 'above' : 'below';
  return {
    agent: MOMENTUM_MA_CROSSOVER,
    symbol: snapshot.symbol,
    direction,
    confidence,
    rationale: `${p.mode} ${p.timeframe}: SMA(${p.fast})=${fast.toPrecision(8)} ${relation} SMA(${p.slow})=${slow.toPrecision(8)}, spread ${(spread * 100).toFixed(4)}%`,
  };
}

function validate(p: MomentumMaCrossoverParams): MomentumMaCrossoverParams {
  const name = MOMENTUM_MA_CROSSOVER;
  requireNumber(name, 'fast', p.fast, (n) => Number.isInteger(n) && n >= 1, 'an integer ≥ 1');
  requireNumber(
    name,
    'slow',
    p.slow,
    (n) => Number.isInteger(n) && n > p.fast,
    `an integer greater than fast (${p.fast})`,
  );
  requireNumber(name, 'spreadForFullConfidence', p.spreadForFullConfidence, (n) => n > 0, 'a number > 0');
  requireNumber(name, 'crossFloor', p.crossFloor, (n) => n >= 0 && n <= 1, 'a number in [0, 1]');
  requireNumber(
    name,
    'minSpread',
    p.minSpread,
    (n) => n >= 0 && n < p.spreadForFullConfidence,
    `a number in [0, spreadForFullConfidence (${p.spreadForFullConfidence}))`,
  );
  if (typeof p.timeframe !== 'string' || !Object.hasOwn(TIMEFRAMES, p.timeframe))
    throw new Error(
      `${name}: parameter "timeframe" must be one of ${TIMEFRAME_LIST}, got ${JSON.stringify(p.timeframe)}`,
    );
  if (p.mode !== 'cross' && p.mode !== 'trend') {
    throw new Error(`${name}: parameter "mode" must be "cross" or "trend", got ${JSON.stringify(p.mode)}`);
  }
  return p;
}

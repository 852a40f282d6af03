/**
 * `momentum_ma_crossover`: the fast/slow simple moving averages of the closes. By default (`cross`)
 * it signals once, on the cycle the fast SMA crosses the slow one — long (+1) crossing up, short (−1)
 * crossing down — and the allocator holds that target until the next cross flips it. `trend` mode
 * (a setting) signals every cycle while the averages stay apart instead.
 *
 * Confidence, on the scale every agent shares (signal.ts: the share of the full risk budget it wants):
 * the normalised spread |fast − slow| / slow divided by `spreadForFullConfidence`, clamped to [0, 1],
 * so a well-separated trend commits the whole budget. On a cross the spread has only just opened, so
 * a cross never counts for less than `crossFloor` (default 0.25, a quarter of the budget — the same
 * as the funding agent's signal just past its threshold).
 */
import { clamp, sma } from '../domain/indicators.js';
import type { Instrument, MarketSnapshot } from '../domain/market.js';
import type { Signal } from '../domain/signal.js';
import { requireNumber, resolveParams } from './strategy.js';
import type { StrategyAgent, StrategyFactory } from '../domain/strategy-agent.js';

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
}

/** fast 5, slow 20 (one close per 60 s cycle), cross mode, full confidence at a 0.5 % spread, crosses ≥ 0.25. */
export const DEFAULT_MOMENTUM_MA_CROSSOVER_PARAMS: Readonly<MomentumMaCrossoverParams> = Object.freeze({
  fast: 5,
  slow: 20,
  mode: 'cross',
  spreadForFullConfidence: 0.005,
  crossFloor: 0.25,
});

export const createMomentumMaCrossover: StrategyFactory<MomentumMaCrossoverParams> = (params) => {
  const p = validate(resolveParams(MOMENTUM_MA_CROSSOVER, DEFAULT_MOMENTUM_MA_CROSSOVER_PARAMS, params));
  return {
    name: MOMENTUM_MA_CROSSOVER,
    analyse: (snapshot: MarketSnapshot, _instrument: Instrument): Signal | null => analyse(p, snapshot),
  } satisfies StrategyAgent;
};

function analyse(p: MomentumMaCrossoverParams, snapshot: MarketSnapshot): Signal | null {
  const closes = snapshot.closes;
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
  const confidence = clamp(spread / p.spreadForFullConfidence, p.mode === 'cross' ? p.crossFloor : 0, 1);
  const relation = direction > 0 ? 'above' : 'below';
  return {
    agent: MOMENTUM_MA_CROSSOVER,
    symbol: snapshot.symbol,
    direction,
    confidence,
    rationale: `${p.mode}: SMA(${p.fast})=${fast.toPrecision(8)} ${relation} SMA(${p.slow})=${slow.toPrecision(8)}, spread ${(spread * 100).toFixed(4)}%`,
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
  if (p.mode !== 'cross' && p.mode !== 'trend') {
    throw new Error(`${name}: parameter "mode" must be "cross" or "trend", got ${JSON.stringify(p.mode)}`);
  }
  return p;
}

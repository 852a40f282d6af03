/**
 * `momentum_ma_crossover`: trend following on the fast/slow simple moving averages of the closes.
 * Long (+1) while the fast SMA is above the slow one, short (−1) while below. Confidence is the
 * normalised spread |fast − slow| / slow divided by `spreadForFullConfidence`, clamped to [0, 1], so
 * a crossover that has only just happened is a weak signal and a well-separated trend a strong one.
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
}

/** fast 5, slow 20 (one close per 60 s cycle), trend mode, full confidence at a 0.5 % spread. */
export const DEFAULT_MOMENTUM_MA_CROSSOVER_PARAMS: Readonly<MomentumMaCrossoverParams> = Object.freeze({
  fast: 5,
  slow: 20,
  mode: 'trend',
  spreadForFullConfidence: 0.005,
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
  const confidence = clamp(spread / p.spreadForFullConfidence, 0, 1);
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
  if (p.mode !== 'cross' && p.mode !== 'trend') {
    throw new Error(`${name}: parameter "mode" must be "cross" or "trend", got ${JSON.stringify(p.mode)}`);
  }
  return p;
}

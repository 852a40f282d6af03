/**
 * `rsi_mean_reversion`: fades stretched moves. When the RSI of the last `period` changes of the
 * `timeframe` candles falls below `oversold` the price has fallen unusually hard, so go long (+1);
 * above `overbought`, short (−1) on perpetuals (spot never opens a short). While it holds a position,
 * it exits (direction 0, confidence 1) once the RSI is back at `exitLevel`: a long at or above it, a
 * short at or below it. Otherwise it says nothing and the position is held.
 *
 * The RSI is the simple-average one (indicators.ts `rsi`): a function of the last `period + 1`
 * closes alone, so its value never depends on how much history the feed happened to hand over.
 * Confidence is fixed (`confidence`, default 0.5: half the risk budget, above the no-trade band and
 * the built-ins' entry levels), since how far past the level the RSI is says little about size.
 *
 * Written, like a user's strategy, against the public entry only (public.ts).
 */
import type { Instrument, Signal, StrategyAgent, StrategyFactory, StrategySnapshot } from './public.js';
import { requireNumber, resolveParams, rsi } from './public.js';

export const RSI_MEAN_REVERSION = 'rsi_mean_reversion';

export interface RsiMeanReversionParams {
  /** Changes the RSI averages (whole number ≥ 2). */
  period: number;
  /** Candles to read: the feed's own or a coarser timeframe (5m, 15m, 1h, …). */
  timeframe: string;
  /** RSI below this opens a long (0 < oversold < exitLevel). */
  oversold: number;
  /** RSI above this opens a short on perpetuals (exitLevel < overbought < 100). */
  overbought: number;
  /** RSI at which a held position is closed (between oversold and overbought). */
  exitLevel: number;
  /** Confidence of an entry, in (0, 1]: the share of RISK_FRACTION × NAV it asks for. */
  confidence: number;
}

/** Wilder's classic 14 / 30 / 70 levels, on 15-minute candles (as momentum_ma_crossover), exit at 50. */
export const DEFAULT_RSI_MEAN_REVERSION_PARAMS: Readonly<RsiMeanReversionParams> = Object.freeze({
  period: 14,
  timeframe: '15m',
  oversold: 30,
  overbought: 70,
  exitLevel: 50,
  confidence: 0.5,
});

export const createRsiMeanReversion: StrategyFactory<RsiMeanReversionParams> = (params) => {
  const p = validate(resolveParams(RSI_MEAN_REVERSION, DEFAULT_RSI_MEAN_REVERSION_PARAMS, params));
  return {
    name: RSI_MEAN_REVERSION,
    parameters: Object.keys(DEFAULT_RSI_MEAN_REVERSION_PARAMS),
    // period changes need period + 1 closes.
    lookback: p.period + 1,
    timeframe: p.timeframe,
    analyse: (snapshot: StrategySnapshot, instrument: Instrument): Signal | null => analyse(p, snapshot, instrument),
  } satisfies StrategyAgent;
};

function validate(p: RsiMeanReversionParams): RsiMeanReversionParams {
  const name = RSI_MEAN_REVERSION;
  requireNumber(name, 'period', p.period, (n) => Number.isInteger(n) && n >= 2, 'a whole number ≥ 2');
  requireNumber(name, 'exitLevel', p.exitLevel, (n) => n > 0 && n < 100, 'in (0, 100)');
  requireNumber(name, 'oversold', p.oversold, (n) => n > 0 && n < p.exitLevel, `in (0, exitLevel ${p.exitLevel})`);
  requireNumber(
    name,
    'overbought',
    p.overbought,
    (n) => n > p.exitLevel && n < 100,
    `in (exitLevel ${p.exitLevel}, 100)`,
  );
  requireNumber(name, 'confidence', p.confidence, (n) => n > 0 && n <= 1, 'in (0, 1]');
  if (typeof p.timeframe !== 'string' || p.timeframe === '')
    throw new Error(
      `${name}: parameter "timeframe" must be a timeframe such as "15m", got ${JSON.stringify(p.timeframe)}`,
    );
  return p;
}

function analyse(p: RsiMeanReversionParams, s: StrategySnapshot, instrument: Instrument): Signal | null {
  const bars = s.higher ?? s.candles;
  const value = rsi(bars.close, p.period);
  if (value === null || Number.isNaN(value)) return null;
  const signal = (direction: number, confidence: number, why: string): Signal => ({
    agent: RSI_MEAN_REVERSION,
    symbol: s.symbol,
    direction,
    confidence,
    rationale: `RSI(${p.period}) ${value.toFixed(1)} ${why}`,
  });
  if (s.position > 0 && value >= p.exitLevel) return signal(0, 1, `back to ${p.exitLevel}: exit the long`);
  if (s.position < 0 && value <= p.exitLevel) return signal(0, 1, `back to ${p.exitLevel}: exit the short`);
  if (value < p.oversold) return signal(1, p.confidence, `below ${p.oversold}: oversold, go long`);
  if (value > p.overbought && instrument.kind === 'perp')
    return signal(-1, p.confidence, `above ${p.overbought}: overbought, go short`);
  return null;
}

/**
 * `bollinger_mean_reversion`: fades a close outside the Bollinger Bands (the SMA of the last
 * `period` `timeframe` closes ± `deviations` standard deviations). Below the lower band, go long
 * (+1); above the upper, short (−1) on perpetuals (spot never opens a short). While it holds a
 * position, it exits (direction 0, confidence 1) once the close is back at the middle band: a long
 * at or above it, a short at or below it. Otherwise it says nothing and the position is held.
 *
 * The bands are a function of the last `period` closes alone, so the same bars give the same signal
 * whatever history came before. Confidence is fixed (`confidence`), as for rsi_mean_reversion.
 *
 * Written, like a user's strategy, against the public entry only (public.ts).
 */
import type { Instrument, Signal, StrategyAgent, StrategyFactory, StrategySnapshot } from './public.js';
import { requireNumber, resolveParams, ta, trackIndicators } from './public.js';

export const BOLLINGER_MEAN_REVERSION = 'bollinger_mean_reversion';

export interface BollingerMeanReversionParams {
  /** Closes the bands average (whole number ≥ 2). */
  period: number;
  /** Band width in standard deviations (> 0). */
  deviations: number;
  /** Candles to read: the feed's own or a coarser timeframe (5m, 15m, 1h, …). */
  timeframe: string;
  /** Confidence of an entry, in (0, 1]: the share of RISK_FRACTION × NAV it asks for. */
  confidence: number;
}

/** Bollinger's own 20 closes and 2 deviations, on 15-minute candles (as rsi_mean_reversion). */
export const DEFAULT_BOLLINGER_MEAN_REVERSION_PARAMS: Readonly<BollingerMeanReversionParams> = Object.freeze({
  period: 20,
  deviations: 2,
  timeframe: '15m',
  confidence: 0.5,
});

export const createBollingerMeanReversion: StrategyFactory<BollingerMeanReversionParams> = (params) => {
  const p = validate(resolveParams(BOLLINGER_MEAN_REVERSION, DEFAULT_BOLLINGER_MEAN_REVERSION_PARAMS, params));
  const indicators = trackIndicators({ bands: ta.bollinger(p.period, p.deviations) });

  function analyse(s: StrategySnapshot, instrument: Instrument): Signal | null {
    const r = indicators.update(s);
    if (r === null) return null;
    const bars = s.higher ?? s.candles;
    const close = bars.close[bars.length - 1]!;
    const { upper, middle, lower } = r.now.bands;
    const signal = (direction: number, confidence: number, why: string): Signal => ({
      agent: BOLLINGER_MEAN_REVERSION,
      symbol: s.symbol,
      direction,
      confidence,
      rationale: `close ${close} ${why}`,
    });
    const mid = middle.toFixed(4);
    if (s.position > 0 && close >= middle) return signal(0, 1, `back at the middle band ${mid}: exit the long`);
    if (s.position < 0 && close <= middle) return signal(0, 1, `back at the middle band ${mid}: exit the short`);
    if (close < lower) return signal(1, p.confidence, `below the lower band ${lower.toFixed(4)}: go long`);
    if (close > upper && instrument.kind === 'perp')
      return signal(-1, p.confidence, `above the upper band ${upper.toFixed(4)}: go short`);
    return null;
  }

  return {
    name: BOLLINGER_MEAN_REVERSION,
    parameters: Object.keys(DEFAULT_BOLLINGER_MEAN_REVERSION_PARAMS),
    lookback: indicators.lookback,
    timeframe: p.timeframe,
    analyse,
  } satisfies StrategyAgent;
};

function validate(p: BollingerMeanReversionParams): BollingerMeanReversionParams {
  const name = BOLLINGER_MEAN_REVERSION;
  requireNumber(name, 'period', p.period, (n) => Number.isInteger(n) && n >= 2, 'a whole number ≥ 2');
  requireNumber(name, 'deviations', p.deviations, (n) => n > 0, '> 0');
  requireNumber(name, 'confidence', p.confidence, (n) => n > 0 && n <= 1, 'in (0, 1]');
  if (typeof p.timeframe !== 'string' || p.timeframe === '')
    throw new Error(
      `${name}: parameter "timeframe" must be a timeframe such as "15m", got ${JSON.stringify(p.timeframe)}`,
    );
  return p;
}

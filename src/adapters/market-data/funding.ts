/**
 * Perpetual funding rate of the synthetic feed: an Ornstein–Uhlenbeck process (mean-reverting)
 * around a level that leans with the trend, because crowded longs in a rally push funding up.
 * Rare shocks and the wider noise of volatile regimes make it leave ±0.05 % per interval now and
 * then, which is what a funding-contrarian strategy waits for. Rates are per funding interval.
 */
import { roundToStep } from '../../domain/steps.js';
import type { Rng } from './prng.js';
import type { TrendRegime, VolRegime } from './regimes.js';

export const FUNDING_PARAMS = {
  /** Long-run level with no trend: 0.01 % per interval, the usual exchange baseline. */
  base: 0.0001,
  /** Added to (up) or taken from (down) the level during trends. */
  trendBias: 0.0001,
  /** Fraction of the gap to the level closed per 60 s (half-life ≈ 35 min). */
  kappa: 0.02,
  /** Noise per √(60 s); stationary spread ≈ sigma / √(2·kappa) ≈ 0.015 %. */
  sigma: 0.00003,
  /** Noise multiplier per volatility regime. */
  volNoise: { calm: 0.7, normal: 1, volatile: 1.8 } as Readonly<Record<VolRegime, number>>,
  /** Chance per 60 s of a sudden squeeze moving funding by about ±0.06 %. */
  shockProb: 0.001,
  shockSize: 0.0006,
  /** Exchanges cap funding; so does the feed. */
  cap: 0.003,
  /** Rates are published to 0.0001 % (1e-6). */
  quantum: 0.000001,
} as const;

export function initialFundingRate(rng: Rng): number {
  return quantize(FUNDING_PARAMS.base + FUNDING_PARAMS.sigma * 2 * rng.normal());
}

/** One step of the process; `timeScale` is the step length in units of 60 s. */
export function nextFundingRate(rate: number, trend: TrendRegime, vol: VolRegime, rng: Rng, timeScale: number): number {
  const p = FUNDING_PARAMS;
  const bias = trend === 'up' ? p.trendBias : trend === 'down' ? -p.trendBias : 0;
  const kappa = Math.min(1, p.kappa * timeScale);
  let next = rate + kappa * (p.base + bias - rate) + p.sigma * p.volNoise[vol] * Math.sqrt(timeScale) * rng.normal();
  if (rng.next() < p.shockProb * timeScale) {
    // Squeezes mostly run with the trend: shorts squeezed in rallies, longs flushed in sell-offs.
    const sign = trend === 'down' ? -1 : trend === 'up' ? 1 : rng.next() < 0.5 ? -1 : 1;
    next += sign * p.shockSize * (0.7 + 0.6 * rng.next());
  }
  return quantize(Math.max(-p.cap, Math.min(p.cap, next)));
}

/** The next funding time strictly after `now` on the fixed UTC grid (00:00, 08:00, 16:00 for 8 h). */
export function nextFundingTime(now: number, intervalMs: number): number {
  return (Math.floor(now / intervalMs) + 1) * intervalMs;
}

function quantize(rate: number): number {
  return roundToStep(rate, FUNDING_PARAMS.quantum);
}

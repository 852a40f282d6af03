/**
 * Perpetual funding rate of the synthetic feed, per funding interval, as two parts:
 *  - a level that persists for days (an Ornstein–Uhlenbeck process around zero with a half-life
 *    of FUNDING_HALF_LIFE_HOURS, default 3 days), nudged up by rallies and down by sell-offs,
 *    because crowded longs in a rising market pay more. Real funding stays high or low for days to
 *    weeks; a level that reverted within the hour (the old 35 min) made every extreme a blip;
 *  - squeezes: rare jumps of about ±0.06 % that fade within hours.
 * Together they take funding beyond ±0.05 % a few per cent of the time, in spells of hours to days,
 * which gives the funding-contrarian strategy something to do.
 * The state is continuous; only the published rate is rounded to the exchange's 0.0001 %, so the
 * slow reversion of a days-long half-life is not lost to rounding minute by minute.
 *
 * Centred on zero, not on the exchanges' usual +0.01 % baseline: the synthetic prices have no
 * drift, so a positive baseline was a carry with nothing against it (a permanent short earned about
 * 11 % of its notional a year, issue 22). On real markets the baseline is paid for by the longs'
 * expected return; here there is none, so neither side is paid for waiting. Squeezes are symmetric
 * outside demo trends, so they add no carry either.
 */
import { roundToStep } from '../../domain/steps.js';
import type { Rng } from './prng.js';
import type { TrendRegime, VolRegime } from './regimes.js';

export const FUNDING_PARAMS = {
  /**
   * Long-run level with no trend: zero, so funding has no carry on a market whose prices have no
   * drift (the exchanges' usual 0.01 % baseline would pay a permanent short ~11 % a year for nothing).
   */
  base: 0,
  /** Default half-life of the level's deviation from the baseline: 3 days. */
  halfLifeHours: 72,
  /** Stationary standard deviation of the level from its own noise (before the price lean). */
  levelSd: 0.00018,
  /** Level change per unit of log return (a 5 % rally lifts funding by 0.01 %). */
  priceLean: 0.002,
  /** Added to (up) or taken from (down) the level's target during demo trends. */
  trendBias: 0.0001,
  /** Level noise multiplier per volatility regime. */
  volNoise: { calm: 0.7, normal: 1, volatile: 1.8 } as Readonly<Record<VolRegime, number>>,
  /** Chance per 60 s of a squeeze (about one in three days per symbol), its size and its half-life. */
  shockProb: 1 / 4320,
  shockSize: 0.0006,
  squeezeHalfLifeMinutes: 90,
  /** Exchanges cap funding; so does the feed. */
  cap: 0.003,
  /** Rates are published to 0.0001 % (1e-6). */
  quantum: 0.000001,
} as const;

export interface FundingState {
  level: number;
  squeeze: number;
}

export function initialFunding(rng: Rng): FundingState {
  return { level: FUNDING_PARAMS.base + FUNDING_PARAMS.levelSd * rng.normal(), squeeze: 0 };
}

export interface FundingStep {
  /** The step length in minutes. */
  minutes: number;
  /** Half-life of the level in hours. */
  halfLifeHours: number;
  trend: TrendRegime;
  /** Demo trend strength (0 = none). */
  trendStrength: number;
  vol: VolRegime;
  /**
   * The symbol's log return over this step without its −σ²/2 convexity term: zero on average on a
   * market without drift, so the price lean moves funding both ways and adds no carry.
   */
  ret: number;
}

/** Advances `state` in place by one step (exact discretisation, so any step length is right). */
export function stepFunding(state: FundingState, step: FundingStep, rng: Rng): void {
  const p = FUNDING_PARAMS;
  const direction = step.trend === 'up' ? 1 : step.trend === 'down' ? -1 : 0;
  const target = p.base + direction * p.trendBias * step.trendStrength;
  const decay = Math.exp((-Math.LN2 * step.minutes) / (step.halfLifeHours * 60));
  const noise = p.levelSd * p.volNoise[step.vol] * Math.sqrt(1 - decay * decay);
  state.level = target + (state.level - target) * decay + noise * rng.normal() + p.priceLean * step.ret;
  state.squeeze *= Math.exp((-Math.LN2 * step.minutes) / p.squeezeHalfLifeMinutes);
  if (rng.next() < p.shockProb * step.minutes) {
    // In a demo trend squeezes run with it (shorts squeezed in rallies); otherwise either way.
    const sign = direction !== 0 && step.trendStrength > 0 ? direction : rng.next() < 0.5 ? -1 : 1;
    state.squeeze += sign * p.shockSize * (0.7 + 0.6 * rng.next());
  }
}

/** The published rate: capped and on the exchange's 0.0001 % grid. */
export function fundingRate(state: FundingState): number {
  const p = FUNDING_PARAMS;
  return roundToStep(Math.max(-p.cap, Math.min(p.cap, state.level + state.squeeze)), p.quantum);
}

/** The next funding time strictly after `now` on the fixed UTC grid (00:00, 08:00, 16:00 for 8 h). */
export function nextFundingTime(now: number, intervalMs: number): number {
  return (Math.floor(now / intervalMs) + 1) * intervalMs;
}

/**
 * Market regimes of the synthetic feed: a volatility regime (calm / normal / volatile) and a
 * trend regime (up / flat / down), each a small Markov chain stepped once per feed step for the
 * whole market (src/adapters/market-data/market-factor.ts). Volatility clusters, as it does in real
 * markets, but it predicts only the size of the next move, never its sign. The trend regime adds
 * drift only when the demo trend is on (SYNTHETIC_TREND): drift that lasts hours makes past returns
 * predict future ones, a free edge no real market offers. Probabilities are per 60 s of feed time
 * and scale with the step length.
 */
import type { Rng } from './prng.js';

export type VolRegime = 'calm' | 'normal' | 'volatile';
export type TrendRegime = 'up' | 'flat' | 'down';

export interface VolParams {
  /** Standard deviation of the log return over 60 s (for a symbol with volScale 1). */
  sigma: number;
  /** Multiplier on the symbol's typical spread. */
  spreadFactor: number;
  /** Multiplier on the gap between book levels (books thin out and gap when volatile). */
  levelGapFactor: number;
  /** Multiplier on resting quantity per level. */
  depthFactor: number;
  /** Multiplier on traded volume. */
  volumeFactor: number;
  /** Chance per 60 s of a jump of 3–6 sigma (fat tails). */
  jumpProb: number;
}

export const VOL_PARAMS: Readonly<Record<VolRegime, VolParams>> = {
  calm: { sigma: 0.0004, spreadFactor: 0.5, levelGapFactor: 1, depthFactor: 1.3, volumeFactor: 0.6, jumpProb: 0 },
  normal: { sigma: 0.0009, spreadFactor: 1, levelGapFactor: 1.4, depthFactor: 1, volumeFactor: 1, jumpProb: 0.002 },
  volatile: {
    sigma: 0.0022,
    spreadFactor: 3.3,
    levelGapFactor: 2.5,
    depthFactor: 0.55,
    volumeFactor: 2.2,
    jumpProb: 0.02,
  },
};

/**
 * Drift of the log price per 60 s in each trend regime at SYNTHETIC_TREND=1 (±0.012 % a minute ≈
 * ±2 % over a 3 h trend: the old generator's demo market, hourly autocorrelation ≈ 0.15–0.2).
 */
export const TREND_DRIFT: Readonly<Record<TrendRegime, number>> = { up: 0.00012, flat: 0, down: -0.00012 };

type Chain<S extends string> = Readonly<Record<S, ReadonlyArray<readonly [S, number]>>>;

// Leaving probabilities per 60 s; staying is the remainder. Expected stays: calm ≈ 4 h,
// normal ≈ 5 h, volatile ≈ 80 min; trends ≈ 3 h, flat ≈ 4 h.
const VOL_CHAIN: Chain<VolRegime> = {
  calm: [
    ['normal', 1 / 240],
    ['volatile', 1 / 3000],
  ],
  normal: [
    ['calm', 1 / 600],
    ['volatile', 1 / 600],
  ],
  volatile: [
    ['normal', 1 / 90],
    ['calm', 1 / 1500],
  ],
};
const TREND_CHAIN: Chain<TrendRegime> = {
  up: [
    ['flat', 1 / 180],
    ['down', 1 / 900],
  ],
  flat: [
    ['up', 1 / 480],
    ['down', 1 / 480],
  ],
  down: [
    ['flat', 1 / 180],
    ['up', 1 / 900],
  ],
};

function step<S extends string>(chain: Chain<S>, current: S, rng: Rng, timeScale: number): S {
  const u = rng.next();
  let acc = 0;
  for (const [target, p] of chain[current]) {
    acc += Math.min(1, p * timeScale);
    if (u < acc) return target;
  }
  return current;
}

export function nextVolRegime(current: VolRegime, rng: Rng, timeScale: number): VolRegime {
  return step(VOL_CHAIN, current, rng, timeScale);
}

export function nextTrendRegime(current: TrendRegime, rng: Rng, timeScale: number): TrendRegime {
  return step(TREND_CHAIN, current, rng, timeScale);
}

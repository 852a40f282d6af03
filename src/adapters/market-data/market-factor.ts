/**
 * The market-wide part of the synthetic market: one stream, stepped once per feed step before any
 * symbol, that sets the volatility and trend regimes every symbol shares and draws the common
 * shock of a one-factor model. A symbol's standardised return is √ρ·(common shock) + √(1−ρ)·(its
 * own shock); both shocks have variance 1 plus the same jump variance, and every symbol scales
 * them by the same regime volatility, so the correlation between any two symbols is ρ whatever
 * the regime (separate regimes per symbol would pull it well below ρ: a calm BTC beside a volatile
 * ETH). The stream is seeded from the feed seed alone, so adding a symbol changes no other path.
 */
import type { Rng, RngState } from './prng.js';
import { nextTrendRegime, nextVolRegime, VOL_PARAMS } from './regimes.js';
import type { TrendRegime, VolRegime } from './regimes.js';

export interface MarketFactorState {
  rng: RngState;
  vol: VolRegime;
  trend: TrendRegime;
}

export interface MarketFactor {
  readonly vol: VolRegime;
  readonly trend: TrendRegime;
  /** This step's common shock (standard normal plus the occasional market-wide jump). */
  readonly shock: number;
  step(): void;
  checkpoint(): MarketFactorState;
}

/**
 * A standard normal plus, with probability `jumpProb` per 60 s, a jump of 3–6 one-minute standard
 * deviations in either direction (fat tails). The jump is divided by √timeScale because the caller
 * multiplies the shock by the step's own volatility: a jump is the same size whatever the step.
 */
export function shockWithJump(rng: Rng, jumpProb: number, timeScale: number): number {
  let z = rng.normal();
  if (rng.next() < jumpProb * timeScale)
    z += ((rng.next() < 0.5 ? -1 : 1) * (3 + 3 * rng.next())) / Math.sqrt(timeScale);
  return z;
}

export function createMarketFactor(options: {
  rng: Rng;
  timeScale: number;
  /** Whether trend regimes run at all (SYNTHETIC_TREND > 0); without them the trend stays flat. */
  trending: boolean;
  state?: Omit<MarketFactorState, 'rng'>;
}): MarketFactor {
  const { rng, timeScale, trending } = options;
  let vol: VolRegime = options.state?.vol ?? 'normal';
  let trend: TrendRegime = trending ? (options.state?.trend ?? 'flat') : 'flat';
  let shock = 0;
  return {
    get vol() {
      return vol;
    },
    get trend() {
      return trend;
    },
    get shock() {
      return shock;
    },
    step() {
      vol = nextVolRegime(vol, rng, timeScale);
      if (trending) trend = nextTrendRegime(trend, rng, timeScale);
      shock = shockWithJump(rng, VOL_PARAMS[vol].jumpProb, timeScale);
    },
    checkpoint: () => ({ rng: rng.state(), vol, trend }),
  };
}

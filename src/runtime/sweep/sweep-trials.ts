/**
 * The trials of a sweep: the parameter sets (every combination of a grid, in the spec's order with
 * the first parameter varying slowest; or `trials` draws of a random search from a seeded generator,
 * so the same spec always makes the same sets), each on the spec's data — or, with walk-forward, on
 * each fold's in-sample window first, and the in-sample best of each fold on its out-of-sample window.
 */
import { seededRandom } from '../../domain/seeded-random.js';
import type { DataWindow, SweepSpec } from './sweep-spec.js';
import { drawValue, gridValues } from './sweep-params.js';
import type { ParamDomain } from './sweep-params.js';
import { MAX_TRIALS } from './sweep-spec.js';
import { ConfigError } from '../config.js';
import { trialEnv } from './sweep-strategy-params.js';

export type Sample = 'all' | 'in_sample' | 'out_of_sample';

/** What a worker needs to run one trial: everything is in it (nothing from the worker's environment). */
export interface TrialJob {
  id: string;
  /** The trial's variables: the spec's env and this parameter set. */
  env: Record<string, string>;
  window: DataWindow;
  /** Hand back the run's equity rows (walk-forward's out-of-sample runs, to stitch them). */
  equity?: true;
}

export interface Trial extends TrialJob {
  paramSet: string;
  params: Record<string, string>;
  fold: number | null;
  sample: Sample;
}

export interface ParamSet {
  id: string;
  params: Record<string, string>;
}

/** Every axis a sweep varies: its variables, then its strategy parameters (`entry.parameter`). */
export function axes(spec: SweepSpec): Map<string, ParamDomain> {
  return new Map([...spec.params, ...spec.strategyParams]);
}

export function paramSets(spec: SweepSpec): ParamSet[] {
  const domains = axes(spec);
  const names = [...domains.keys()];
  let sets: Record<string, string>[];
  if (spec.search === 'grid') {
    sets = [{}];
    for (const name of names) {
      const values = gridValues(domains.get(name)!);
      if (sets.length * values.length > MAX_TRIALS)
        throw new ConfigError(`sweep spec: params make more than ${MAX_TRIALS} combinations; narrow the grid`);
      sets = sets.flatMap((set) => values.map((value) => ({ ...set, [name]: value })));
    }
  } else {
    const random = seededRandom(spec.sampleSeed);
    sets = Array.from({ length: spec.trials! }, () =>
      Object.fromEntries(names.map((name) => [name, drawValue(domains.get(name)!, random())])),
    );
  }
  const width = String(sets.length).length;
  return sets.map((params, i) => ({ id: `p${String(i + 1).padStart(width, '0')}`, params }));
}

/** The first batch: every set on the data, or on every fold's in-sample window. */
export function firstTrials(spec: SweepSpec, sets: readonly ParamSet[]): Trial[] {
  if (spec.walkForward.length === 0) return sets.map((set) => trial(spec, set, spec.data, null, 'all'));
  return spec.walkForward.flatMap((fold, f) => sets.map((set) => trial(spec, set, fold.inSample, f + 1, 'in_sample')));
}

/** Walk-forward's second batch: each fold's in-sample best on that fold's out-of-sample window. */
export function outOfSampleTrials(spec: SweepSpec, bestPerFold: readonly ParamSet[]): Trial[] {
  return spec.walkForward.map((fold, f) => trial(spec, bestPerFold[f]!, fold.outOfSample, f + 1, 'out_of_sample'));
}

function trial(spec: SweepSpec, set: ParamSet, window: DataWindow, fold: number | null, sample: Sample): Trial {
  const id = fold === null ? set.id : `f${fold}-${sample === 'in_sample' ? 'is' : 'oos'}-${set.id}`;
  const env = trialEnv(spec.env, set.params, spec.strategyParams);
  const row: Trial = { id, paramSet: set.id, params: set.params, fold, sample, env, window };
  // Only out-of-sample runs: other jobs stay as they were (and keep their queue ids).
  if (sample === 'out_of_sample') row.equity = true;
  return row;
}

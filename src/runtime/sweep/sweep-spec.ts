/**
 * The spec of `tcs sweep` (a JSON file), checked whole before anything runs: every mistake is a
 * ConfigError (exit 2) that names the field, e.g. `params.RISK_FRACTION.min`. What the fields mean
 * is in SWEEP_HELP (sweep-options.ts) and docs/strategies/sweeps.md.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../config.js';
import { CONFIG_VARIABLES } from '../config-variables.js';
import { closestName } from '../../strategies/name-hint.js';
import { parseParam } from './sweep-params.js';
import type { ParamDomain } from './sweep-params.js';
import { parseObjective } from './sweep-objective.js';
import { parseStrategyAxes } from './sweep-strategy-params.js';
import type { Objective } from './sweep-objective.js';
import { envValue, field, isObject, knownKeys, optionalIso, optionalWhole } from './spec-fields.js';
import { parseWalkForwardPlan } from './walk-forward-folds.js';
import type { WalkForwardPlan } from './walk-forward-folds.js';

/** Which market a trial runs on: the synthetic one (seed) or a replay (dir), over a window. */
export interface DataWindow {
  dir: string | null;
  seed: number | null;
  cycles: number | null;
  from: number | null;
  to: number | null;
}

export interface WalkForwardFold {
  inSample: DataWindow;
  outOfSample: DataWindow;
}

export interface SweepSpec {
  search: 'grid' | 'random';
  /** Random search: how many trials; grid: null (every combination). */
  trials: number | null;
  /** Random search: the sampling seed. */
  sampleSeed: number;
  params: ReadonlyMap<string, ParamDomain>;
  /** Strategy parameters varied as axes of their own (`entry.parameter`), folded into STRATEGY_PARAMS. */
  strategyParams: ReadonlyMap<string, ParamDomain>;
  /** Variables every trial gets (strategies, symbols…), under the params. */
  env: Readonly<Record<string, string>>;
  data: DataWindow;
  objective: Objective;
  walkForward: readonly WalkForwardFold[];
  /** The generator that made walkForward (rolling or anchored), or null: folds written by hand, or none. */
  walkForwardPlan: WalkForwardPlan | null;
}

/** More trials than this is a typo in a grid, not a plan. */
export const MAX_TRIALS = 10_000;
const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;
/** Decided by the simulation itself (simulation-env.ts), or by the spec's data: never a parameter. */
const RESERVED = new Set(['MARKET_DATA', 'EXECUTION_MODE', 'LIVE_MAINNET', 'STORE_URL', 'RISK_HMAC_SECRET']);
/**
 * The names a trial can set: every variable the code reads (config-variables.ts). A trial sees only
 * the spec, so a name outside this list is read by nothing: `RISK_FRACTOIN` ran every trial alike.
 */
const KNOWN = CONFIG_VARIABLES.map((v) => v.name).filter((name) => !RESERVED.has(name));

export function readSweepSpec(path: string): SweepSpec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`sweep spec ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`sweep spec ${path}: not valid JSON (${(err as Error).message})`);
  }
  return parseSweepSpec(raw);
}

export function parseSweepSpec(raw: unknown): SweepSpec {
  if (!isObject(raw)) throw new ConfigError('sweep spec: must be a JSON object');
  knownKeys(raw, '', [
    'search',
    'trials',
    'seed',
    'params',
    'strategy_params',
    'env',
    'data',
    'objective',
    'constraints',
    'walk_forward',
  ]);
  const search = raw.search ?? 'grid';
  if (search !== 'grid' && search !== 'random') throw field('search', 'must be "grid" or "random"', raw.search);
  const trials = optionalWhole(raw, 'trials', 1, MAX_TRIALS);
  if (search === 'random' && trials === null) throw field('trials', 'is required for a random search');
  if (search === 'grid' && trials !== null)
    throw field('trials', 'is for a random search (a grid runs every combination)');
  const env = parseEnv(raw.env);
  const params = parseParams(raw.params, search, env, raw.strategy_params !== undefined);
  const strategyParams = parseStrategyAxes(raw.strategy_params, search, env, params);
  const data = parseWindow(raw.data, 'data', null);
  const generated = isObject(raw.walk_forward) ? parseWalkForwardPlan(raw.walk_forward, data) : null;
  if (data.dir === null && data.cycles === null && data.to === null)
    throw field('data', 'needs "cycles" (or "to") for the synthetic market, or "dir" for a replay');
  if (data.dir !== null && (data.seed !== null || params.has('MARKET_SEED')))
    throw field(
      data.seed !== null ? 'data.seed' : 'params.MARKET_SEED',
      'is for the synthetic market; a replay has no randomness',
    );
  if (data.seed !== null && params.has('MARKET_SEED'))
    throw field('params.MARKET_SEED', 'and data.seed both set the seed: keep one');
  if (raw.walk_forward !== undefined && params.has('MARKET_SEED'))
    throw field('params.MARKET_SEED', 'cannot vary in a walk-forward (its windows set the seed)');
  return {
    search,
    trials,
    sampleSeed: optionalWhole(raw, 'seed', 0, 2 ** 31 - 1) ?? 1,
    params,
    strategyParams,
    env,
    data,
    objective: parseObjective(raw.objective, raw.constraints),
    walkForward: generated?.folds ?? parseWalkForward(raw.walk_forward, data),
    walkForwardPlan: generated?.plan ?? null,
  };
}

function parseEnv(raw: unknown): Record<string, string> {
  if (raw === undefined) return {};
  if (!isObject(raw))
    throw field('env', 'must be an object of variables, e.g. {"STRATEGIES": "momentum_ma_crossover"}');
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    checkName(`env.${name}`, name);
    env[name] = envValue(`env.${name}`, value);
  }
  return env;
}

function checkName(where: string, name: string): void {
  if (!ENV_NAME.test(name)) throw field(where, 'is not a variable name (upper case, digits and _)');
  if (RESERVED.has(name)) throw field(where, 'is decided by the simulation itself and cannot be set by a sweep');
  if (!KNOWN.includes(name)) {
    // A long name tolerates a few more slips (RISK_FRACTOIN is 2 edits, PROTECTON_PARAMS 1).
    const hint = closestName(name, KNOWN, Math.max(2, Math.floor(name.length / 4)));
    throw field(
      where,
      `is not a configuration variable, so no trial would read it (${hint === null ? 'see docs/reference/configuration.md' : `did you mean ${hint}?`})`,
    );
  }
}

function parseParams(
  raw: unknown,
  search: 'grid' | 'random',
  env: Record<string, string>,
  strategyAxes: boolean,
): Map<string, ParamDomain> {
  // With strategy_params varying something, params may be left out.
  if (raw === undefined && strategyAxes) return new Map();
  if (!isObject(raw) || Object.keys(raw).length === 0)
    throw field(
      'params',
      'must name at least one variable to vary, e.g. {"RISK_FRACTION": [0.05, 0.1]} (or use strategy_params)',
    );
  const params = new Map<string, ParamDomain>();
  for (const [name, domain] of Object.entries(raw)) {
    checkName(`params.${name}`, name);
    if (name in env) throw field(`params.${name}`, 'is also in env: a variable is either fixed or varied');
    params.set(name, parseParam(`params.${name}`, domain, search));
  }
  return params;
}

/** `data` (base === null) or a walk-forward window, which inherits what it does not say from `data`. */
function parseWindow(raw: unknown, where: string, base: DataWindow | null): DataWindow {
  if (!isObject(raw))
    throw field(where, 'must be an object, e.g. {"seed": 1, "cycles": 1000} or {"dir": "data/jan24"}');
  knownKeys(
    raw,
    `${where}.`,
    base === null ? ['dir', 'seed', 'cycles', 'from', 'to'] : ['seed', 'cycles', 'from', 'to'],
  );
  if (raw.dir !== undefined && (typeof raw.dir !== 'string' || raw.dir.trim() === ''))
    throw field(`${where}.dir`, 'must be a data directory (see docs/strategies/data-format.md)', raw.dir);
  const window: DataWindow = {
    // Absolute, from where the sweep was started (as tcs simulate --data reads it): a sweep-worker
    // started elsewhere would otherwise read a relative path from its own directory.
    dir: base?.dir ?? (typeof raw.dir === 'string' ? resolve(raw.dir.trim()) : null),
    seed: optionalWhole(raw, 'seed', 0, 2 ** 31 - 1, where) ?? base?.seed ?? null,
    cycles:
      optionalWhole(raw, 'cycles', 1, 100_000_000, where) ??
      (base === null ? null : raw.to === undefined ? base.cycles : null),
    from: optionalIso(raw, 'from', where) ?? base?.from ?? null,
    to: optionalIso(raw, 'to', where) ?? (base === null ? null : raw.cycles === undefined ? base.to : null),
  };
  if (window.from !== null && window.to !== null && window.to <= window.from)
    throw field(`${where}.to`, 'must be after from');
  return window;
}

function parseWalkForward(raw: unknown, data: DataWindow): WalkForwardFold[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length === 0)
    throw field(
      'walk_forward',
      'must be a generator {"mode": "rolling"|"anchored", "folds": N, "in_sample": "14d", "out_of_sample": "7d"} or a list of folds, each {"in_sample": {…}, "out_of_sample": {…}}',
    );
  return raw.map((fold: unknown, i) => {
    const where = `walk_forward[${i}]`;
    if (!isObject(fold)) throw field(where, 'must be {"in_sample": {…}, "out_of_sample": {…}}');
    knownKeys(fold, `${where}.`, ['in_sample', 'out_of_sample']);
    const inSample = parseWindow(fold.in_sample, `${where}.in_sample`, data);
    const outOfSample = parseWindow(fold.out_of_sample, `${where}.out_of_sample`, data);
    // The synthetic path depends on its seed alone (not on from): its windows differ by seed.
    if (data.dir === null && inSample.seed === outOfSample.seed)
      throw field(where, 'synthetic windows need different seeds (the synthetic path does not depend on from)');
    if (data.dir !== null && (inSample.from === null || outOfSample.from === null))
      throw field(where, 'each replay window needs "from", so in-sample and out-of-sample are different periods');
    // The point of a fold: the out-of-sample period is data the in-sample choice never saw. An
    // in-sample window without "to" runs to the data's end, over the out-of-sample period.
    if (data.dir !== null && (inSample.to === null || inSample.to > outOfSample.from!))
      throw field(
        `${where}.in_sample.to`,
        'must be set and at or before out_of_sample.from: the best set must be chosen on data the out-of-sample run has not seen',
      );
    return { inSample, outOfSample };
  });
}

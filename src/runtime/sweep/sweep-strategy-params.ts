/**
 * A sweep's strategy parameters as axes of their own (issue 34, item 7): `strategy_params` gives, per
 * STRATEGIES entry, each parameter's values — a list or a range, as `params` takes them
 * (sweep-params.ts) — and every trial gets STRATEGY_PARAMS built from its values, over the spec's own
 * `env.STRATEGY_PARAMS` if it has one. A 3 × 3 grid of two parameters is two lines, not nine
 * hand-written objects. Axis names are `entry.parameter`; their values are JSON texts (a number
 * prints as itself, a string in quotes) and become JSON values again in STRATEGY_PARAMS. The names
 * are checked against each strategy's declared `parameters` before the first trial (sweep-check.ts).
 */
import { field, isObject } from './spec-fields.js';
import { parseParam } from './sweep-params.js';
import type { ParamDomain } from './sweep-params.js';

/** `entry.parameter` → the values it takes. */
export type StrategyAxes = ReadonlyMap<string, ParamDomain>;

const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function parseStrategyAxes(
  raw: unknown,
  search: 'grid' | 'random',
  env: Readonly<Record<string, string>>,
  params: ReadonlyMap<string, ParamDomain>,
): Map<string, ParamDomain> {
  const axes = new Map<string, ParamDomain>();
  if (raw === undefined) return axes;
  if (!isObject(raw) || Object.keys(raw).length === 0)
    throw field(
      'strategy_params',
      'must give, per strategy, its parameters to vary, e.g. {"momentum_ma_crossover": {"fast": [5, 10, 20]}}',
      raw,
    );
  if (params.has('STRATEGY_PARAMS'))
    throw field('params.STRATEGY_PARAMS', 'and strategy_params both set the strategy parameters: keep one');
  baseStrategyParams(env);
  for (const [entry, parameters] of Object.entries(raw)) {
    if (!isObject(parameters) || Object.keys(parameters).length === 0)
      throw field(
        `strategy_params.${entry}`,
        'must be an object of parameters, e.g. {"fast": [5, 10, 20]}',
        parameters,
      );
    for (const [name, domain] of Object.entries(parameters)) {
      const where = `strategy_params.${entry}.${name}`;
      if (!PARAMETER_NAME.test(name)) throw field(where, 'is not a parameter name (letters, digits and _)');
      const parsed = parseParam(where, domain, search);
      // A list keeps its values' JSON, so "15m" stays a string and 10 a number in STRATEGY_PARAMS.
      axes.set(
        `${entry}.${name}`,
        parsed.kind === 'list' && Array.isArray(domain)
          ? { kind: 'list', values: domain.map((v) => JSON.stringify(v)) }
          : parsed,
      );
    }
  }
  return axes;
}

/** The spec's own `env.STRATEGY_PARAMS` (an object of entries), or {}. */
function baseStrategyParams(env: Readonly<Record<string, string>>): Record<string, Record<string, unknown>> {
  const text = env.STRATEGY_PARAMS;
  if (text === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw field('env.STRATEGY_PARAMS', 'must be a JSON object when strategy_params varies it', text);
  }
  if (!isObject(parsed) || !Object.values(parsed).every(isObject))
    throw field(
      'env.STRATEGY_PARAMS',
      'must be an object of objects, e.g. {"momentum_ma_crossover": {"fast": 10}}',
      parsed,
    );
  return parsed as Record<string, Record<string, unknown>>;
}

/**
 * A trial's variables: the spec's env and the trial's `params` values, with the strategy axes among
 * them (names in `axes`) folded into STRATEGY_PARAMS instead of becoming variables.
 */
export function trialEnv(
  env: Readonly<Record<string, string>>,
  values: Readonly<Record<string, string>>,
  axes: StrategyAxes,
): Record<string, string> {
  const out: Record<string, string> = { ...env };
  let strategyParams: Record<string, Record<string, unknown>> | null = null;
  for (const [name, value] of Object.entries(values)) {
    if (!axes.has(name)) {
      out[name] = value;
      continue;
    }
    strategyParams ??= structuredClone(baseStrategyParams(env));
    const dot = name.lastIndexOf('.');
    const entry = name.slice(0, dot);
    (strategyParams[entry] ??= {})[name.slice(dot + 1)] = JSON.parse(value) as unknown;
  }
  if (strategyParams !== null) out.STRATEGY_PARAMS = JSON.stringify(strategyParams);
  return out;
}

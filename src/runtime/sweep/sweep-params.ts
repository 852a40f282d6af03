/**
 * The values one parameter takes: a list (`[0.05, 0.1]`, strings, objects for JSON variables such
 * as PROTECTION_PARAMS) or a range (`{"min": 0.1, "max": 0.3, "step": 0.1}`, optional `"log": true`
 * for a random search). A grid walks a list or a stepped range; a random search picks from a list or
 * draws from a range (on its steps when it has any). Every value ends as the variable's text.
 */
import { envValue, field, isObject, knownKeys } from './spec-fields.js';

export type ParamDomain =
  | { kind: 'list'; values: readonly string[] }
  | { kind: 'range'; min: number; max: number; step: number | null; log: boolean };

/** A grid axis longer than this is a mistake in its step. */
const MAX_AXIS = 1_000;

export function parseParam(where: string, raw: unknown, search: 'grid' | 'random'): ParamDomain {
  if (Array.isArray(raw)) {
    if (raw.length === 0) throw field(where, 'must list at least one value');
    const values = raw.map((v, i) => envValue(`${where}[${i}]`, v));
    if (new Set(values).size !== values.length) throw field(where, 'lists a value twice');
    return { kind: 'list', values };
  }
  if (!isObject(raw)) throw field(where, 'must be a list of values or a range {"min": …, "max": …, "step": …}', raw);
  knownKeys(raw, `${where}.`, ['min', 'max', 'step', 'log']);
  const num = (key: string): number | null => {
    const value = raw[key];
    if (value === undefined) return null;
    if (typeof value !== 'number' || !Number.isFinite(value)) throw field(`${where}.${key}`, 'must be a number', value);
    return value;
  };
  const min = num('min');
  const max = num('max');
  if (min === null || max === null) throw field(where, 'a range needs both "min" and "max"');
  if (max < min) throw field(`${where}.max`, 'must not be below min', max);
  const step = num('step');
  if (step !== null && step <= 0) throw field(`${where}.step`, 'must be above 0', step);
  const log = raw.log === true;
  if (raw.log !== undefined && typeof raw.log !== 'boolean')
    throw field(`${where}.log`, 'must be true or false', raw.log);
  if (log && (min <= 0 || step !== null)) throw field(`${where}.log`, 'needs min above 0 and no step');
  if (search === 'grid' && step === null) throw field(`${where}.step`, 'is required for a range in a grid');
  const domain: ParamDomain = { kind: 'range', min, max, step, log };
  if (search === 'grid' && gridValues(domain).length > MAX_AXIS)
    throw field(`${where}.step`, `makes more than ${MAX_AXIS} values`, step);
  return domain;
}

/** Every value of a grid axis, in order. */
export function gridValues(domain: ParamDomain): string[] {
  if (domain.kind === 'list') return [...domain.values];
  const step = domain.step as number;
  const count = Math.floor((domain.max - domain.min) / step + 1e-9) + 1;
  return Array.from({ length: Math.min(count, MAX_AXIS + 1) }, (_, i) => text(domain.min + i * step));
}

/** One random value of the domain, from `u` uniform in [0, 1). */
export function drawValue(domain: ParamDomain, u: number): string {
  if (domain.kind === 'list') return domain.values[Math.floor(u * domain.values.length)]!;
  if (domain.step !== null) {
    const steps = Math.floor((domain.max - domain.min) / domain.step + 1e-9) + 1;
    return text(domain.min + Math.floor(u * steps) * domain.step);
  }
  if (domain.log) return text(Math.exp(Math.log(domain.min) + u * (Math.log(domain.max) - Math.log(domain.min))));
  return text(domain.min + u * (domain.max - domain.min));
}

/** Twelve significant digits: 0.1 + 2 × 0.1 reads 0.3, not 0.30000000000000004. */
function text(x: number): string {
  return String(Number(x.toPrecision(12)));
}

/**
 * Small readers for the sweep spec's fields: each mistake becomes a ConfigError that names the
 * field's path in the spec (`data.cycles`, `params.RISK_FRACTION.max`), so the user knows where to look.
 */
import { ConfigError } from '../config.js';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `sweep spec: <path> <problem>[, got <value>]`. */
export function field(path: string, problem: string, got?: unknown): ConfigError {
  const shown = got === undefined ? '' : `, got ${JSON.stringify(got)}`;
  return new ConfigError(`sweep spec: ${path} ${problem}${shown}`);
}

/** An unknown key is a typo (e.g. "cylces"): refused rather than silently ignored. */
export function knownKeys(raw: Record<string, unknown>, prefix: string, keys: readonly string[]): void {
  for (const key of Object.keys(raw))
    if (!keys.includes(key)) throw field(`${prefix}${key}`, `is not a field here (known: ${keys.join(', ')})`);
}

export function optionalWhole(
  raw: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
  where = '',
): number | null {
  const value = raw[key];
  if (value === undefined) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
    throw field(where === '' ? key : `${where}.${key}`, `must be a whole number from ${min} to ${max}`, value);
  return value;
}

/** An ISO date or a date-time with a zone (as --from/--to of `tcs simulate`). */
export function optionalIso(raw: Record<string, unknown>, key: string, where: string): number | null {
  const value = raw[key];
  if (value === undefined) return null;
  const text = typeof value === 'string' ? value.trim() : '';
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text);
  const ms = dateOnly || zoned ? Date.parse(dateOnly ? `${text}T00:00:00Z` : text) : Number.NaN;
  if (!Number.isFinite(ms))
    throw field(`${where}.${key}`, 'must be an ISO date or date-time with a zone, e.g. 2024-01-01T00:00:00Z', value);
  return ms;
}

/** A variable's text: strings as they are, numbers and booleans printed, objects as JSON (e.g. PROTECTION_PARAMS). */
export function envValue(where: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (isObject(value) || Array.isArray(value)) return JSON.stringify(value);
  throw field(where, 'must be a string, a number, a boolean or an object', value);
}

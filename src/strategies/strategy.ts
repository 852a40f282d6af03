/**
 * The interface every strategy agent implements, built-in or user-supplied. An agent is a pure
 * function of one symbol's market snapshot: no I/O, no clock, no env. Each cycle the trading
 * process calls `analyse` once per whitelisted instrument and collects the non-null Signals.
 *
 * Writing your own, loaded with e.g. `STRATEGIES=momentum_ma_crossover,./my-strategy.ts` (see registry.ts):
 *
 * ```ts
 * import type { StrategyFactory } from 'trading-control-service/strategy'; // the public entry (public.ts)
 * const factory: StrategyFactory<{ threshold: number }> = (params = {}) => ({
 *   name: 'my_strategy',
 *   analyse: (snapshot, instrument) => null, // or { agent: 'my_strategy', symbol, direction, confidence }
 * });
 * export default factory; // or export default a StrategyAgent object
 * ```
 */
import type { StrategyAgent } from '../domain/strategy-agent.js';
import { closestName } from './name-hint.js';

// Re-exported for the built-ins and for strategies written before the public entry (public.ts) existed.
export type { StrategyAgent, StrategyFactory, StrategySnapshot } from '../domain/strategy-agent.js';

/** True for anything shaped like a StrategyAgent (used to check user modules). */
export function isStrategyAgent(value: unknown): value is StrategyAgent {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as { name?: unknown; analyse?: unknown };
  return typeof candidate.name === 'string' && candidate.name.length > 0 && typeof candidate.analyse === 'function';
}

/**
 * Merges `params` over `defaults`, refusing keys the strategy does not know, so a typo such as
 * `fats` fails loudly instead of silently running with the default.
 */
export function resolveParams<P extends object>(
  strategy: string,
  defaults: Readonly<P>,
  params: Partial<P> | undefined,
): P {
  const given: object = params ?? {};
  const known = Object.keys(defaults);
  for (const key of Object.keys(given)) {
    if (!known.includes(key)) throw unknownParameter(strategy, key, known);
  }
  const merged: P = { ...defaults };
  for (const [key, value] of Object.entries(given)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/** `<strategy>: unknown parameter "lookbak" (did you mean lookback?; known: …)`. */
export function unknownParameter(strategy: string, key: string, known: readonly string[]): Error {
  const hint = closestName(key, known);
  return new Error(
    `${strategy}: unknown parameter "${key}" (${hint === null ? '' : `did you mean ${hint}?; `}known: ${known.join(', ')})`,
  );
}

/** Throws unless `value` is a finite number satisfying `ok`; `rule` says what is expected. */
export function requireNumber(
  strategy: string,
  param: string,
  value: unknown,
  ok: (n: number) => boolean,
  rule: string,
): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) {
    throw new Error(`${strategy}: parameter "${param}" must be ${rule}, got ${JSON.stringify(value)}`);
  }
  return value;
}

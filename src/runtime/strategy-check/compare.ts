/**
 * What `tcs strategy check` compares: a strategy's answer for one symbol at one bar, reduced to what
 * trades on it (direction, confidence, target) or to "no signal" or "threw". Two runs agree at a
 * bar when their answers are the same within a tolerance: smoothed indicators restarted at another
 * bar agree only to about a millionth (SEED_WEIGHT), so exact equality would flag every honest EMA.
 * The rationale is not compared (it prints indicator values to 8 digits); the report shows it.
 */
import type { Signal, SignalTarget } from '../../domain/signal.js';

/** One answer of `analyse`, as the check keeps it. */
export type Outcome =
  | { kind: 'signal'; direction: number; confidence: number; target?: SignalTarget; rationale?: string }
  | { kind: 'none' }
  | { kind: 'error'; message: string };

/** An answer at one cycle of a replay, for one symbol. */
export interface Answer {
  cycle: number;
  symbol: string;
  outcome: Outcome;
}

/** Where two runs first disagree: the cycle, the symbol, and the two answers (a: the first run's). */
export interface Difference {
  cycle: number;
  symbol: string;
  a: Outcome;
  b: Outcome;
}

/** The answer kept of a returned signal. */
export function signalOutcome(signal: Signal): Outcome {
  return {
    kind: 'signal',
    direction: signal.direction,
    confidence: signal.confidence,
    ...(signal.target === undefined ? {} : { target: signal.target }),
    ...(signal.rationale === undefined ? {} : { rationale: signal.rationale }),
  };
}

/** True when the two answers would trade the same, within `tolerance` (absolute on confidence, relative on a target). */
export function sameOutcome(a: Outcome, b: Outcome, tolerance: number): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'none') return true;
  if (a.kind === 'error') return a.message === (b as typeof a).message;
  const other = b as typeof a;
  if (a.direction !== other.direction) return false;
  if (!(Math.abs(a.confidence - other.confidence) <= tolerance)) return false;
  return sameTarget(a.target, other.target, tolerance);
}

function sameTarget(a: SignalTarget | undefined, b: SignalTarget | undefined, tolerance: number): boolean {
  if (a === undefined || b === undefined) return a === b;
  const keys = Object.keys(a) as (keyof SignalTarget)[];
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    const x = a[k];
    const y = b[k];
    if (x === undefined || y === undefined) return false;
    return Math.abs(x - y) <= tolerance * Math.max(Math.abs(x), Math.abs(y));
  });
}

/**
 * The earliest cycle (then symbol, in `a`'s order) where both runs answered and disagree, or null.
 * A cycle or symbol only one run answered is not compared: the runs cover different spans.
 */
export function firstDifference(a: readonly Answer[], b: readonly Answer[], tolerance: number): Difference | null {
  const byKey = new Map<string, Outcome>();
  for (const answer of b) byKey.set(`${answer.cycle}\u0000${answer.symbol}`, answer.outcome);
  let first: Difference | null = null;
  for (const answer of a) {
    if (first !== null && answer.cycle >= first.cycle) continue;
    const other = byKey.get(`${answer.cycle}\u0000${answer.symbol}`);
    if (other === undefined || sameOutcome(answer.outcome, other, tolerance)) continue;
    first = { cycle: answer.cycle, symbol: answer.symbol, a: answer.outcome, b: other };
  }
  return first;
}

/** An answer as one short phrase for the table: `long 0.8213`, `short 1 (notional 500)`, `no signal`, `threw: …`. */
export function describeOutcome(outcome: Outcome): string {
  if (outcome.kind === 'none') return 'no signal';
  if (outcome.kind === 'error') return `threw: ${outcome.message}`;
  const side = outcome.direction > 0 ? 'long' : outcome.direction < 0 ? 'short' : 'flat';
  const target =
    outcome.target === undefined
      ? ''
      : ` (${Object.entries(outcome.target)
          .map(([k, v]) => `${k} ${String(v)}`)
          .join(', ')})`;
  return `${side} ${Number(outcome.confidence.toPrecision(6))}${target}`;
}

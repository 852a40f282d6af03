/**
 * Weighted arbitration (spec step 2): every signal is scored weight × confidence and the best are
 * selected, at most `maxOrders` per cycle and at most one per symbol. Every signal comes back with
 * its weight, score and the reason it was or was not selected, for the audit trail.
 *
 * Exits: a signal with direction 0 means "flat" — its agent no longer wants the position it asked
 * for (see signal.ts). Exits only lower risk, so they are selected (reason EXIT) outside the
 * `maxOrders` budget and without the confidence floor, for every symbol no directional signal was
 * selected for; an exit needs a score > 0 like any signal (an agent weighted 0 is switched off, exits too).
 *
 * Ranking is a total order, so the result does not depend on the order agents reported in:
 *   1. higher score first,
 *   2. then higher confidence,
 *   3. then agent name ascending,
 *   4. then symbol ascending,
 *   5. then direction descending, then rationale ascending (only for otherwise identical signals).
 * Strings compare by UTF-16 code units (`<`), never by locale, so every machine ranks alike.
 * Ineligible signals are ranked after eligible ones by the same order.
 */
import type { Signal } from './signal.js';

export interface ArbitrationOptions {
  /** Weight per agent name; agents not listed weigh `DEFAULT_AGENT_WEIGHT`. Finite and ≥ 0. */
  weights?: Readonly<Record<string, number>>;
  /** Signals with confidence below this are ignored. In [0, 1]. */
  minConfidence?: number;
  /** Most signals selected per cycle. Integer ≥ 0. */
  maxOrders?: number;
}

export const DEFAULT_AGENT_WEIGHT = 1;

/** minConfidence 0.1 (weaker signals would size to dust), one order per cycle. */
export const DEFAULT_ARBITRATION_OPTIONS = Object.freeze({ minConfidence: 0.1, maxOrders: 1 });

export type ArbitrationReason =
  | 'SELECTED'
  /** direction 0 (flat), selected outside the maxOrders budget. */
  | 'EXIT'
  /** direction or confidence not a finite number, or confidence outside [0, 1]. */
  | 'INVALID_SIGNAL'
  | 'BELOW_MIN_CONFIDENCE'
  /** weight × confidence is 0 (e.g. an agent weighted 0 is switched off). */
  | 'ZERO_SCORE'
  /** a better-ranked signal for the same symbol was selected. */
  | 'SYMBOL_ALREADY_SELECTED'
  | 'MAX_ORDERS_REACHED';

export interface ScoredSignal {
  signal: Signal;
  weight: number;
  /** weight × confidence; 0 for an invalid signal so the audit record stays finite. */
  score: number;
  selected: boolean;
  reason: ArbitrationReason;
}

export interface ArbitrationResult {
  /** Every input signal, in rank order. */
  ranked: ScoredSignal[];
  /** The selected signals, best first. */
  selected: Signal[];
}

export function arbitrate(signals: readonly Signal[], options: ArbitrationOptions = {}): ArbitrationResult {
  const { weights, minConfidence, maxOrders } = validateOptions(options);

  const scored = signals.map((signal) => {
    // hasOwn: an agent called "constructor" must not pick up Object.prototype's member as a weight.
    const weight = (Object.hasOwn(weights, signal.agent) ? weights[signal.agent] : undefined) ?? DEFAULT_AGENT_WEIGHT;
    const valid = isValidSignal(signal);
    const score = valid ? weight * signal.confidence : 0;
    return {
      signal,
      weight,
      score,
      eligibility: valid ? eligibility(signal, score, minConfidence) : 'INVALID_SIGNAL',
    } as const;
  });
  scored.sort((a, b) => Number(a.eligibility !== null) - Number(b.eligibility !== null) || compareRank(a, b));

  const takenSymbols = new Set<string>();
  const selected: Signal[] = [];
  const reasons: ArbitrationReason[] = scored.map(({ signal, eligibility: blocked }) => {
    if (blocked !== null) return blocked;
    if (isExit(signal)) return 'EXIT'; // decided below, once every directional signal has had its turn
    if (takenSymbols.has(signal.symbol)) return 'SYMBOL_ALREADY_SELECTED';
    if (selected.length >= maxOrders) return 'MAX_ORDERS_REACHED';
    takenSymbols.add(signal.symbol);
    selected.push(signal);
    return 'SELECTED';
  });
  scored.forEach(({ signal }, i) => {
    if (reasons[i] !== 'EXIT') return;
    if (takenSymbols.has(signal.symbol)) reasons[i] = 'SYMBOL_ALREADY_SELECTED';
    else {
      takenSymbols.add(signal.symbol);
      selected.push(signal);
    }
  });
  const ranked = scored.map(({ signal, weight, score }, i): ScoredSignal => {
    const reason = reasons[i]!;
    return { signal, weight, score, selected: reason === 'SELECTED' || reason === 'EXIT', reason };
  });
  return { ranked, selected };
}

function isExit(s: Signal): boolean {
  return Math.sign(s.direction) === 0;
}

function isValidSignal(s: Signal): boolean {
  return Number.isFinite(s.direction) && Number.isFinite(s.confidence) && s.confidence >= 0 && s.confidence <= 1;
}

/** Why a valid signal cannot be selected at all, or null when it competes. */
function eligibility(s: Signal, score: number, minConfidence: number): ArbitrationReason | null {
  if (isExit(s)) return score > 0 ? null : 'ZERO_SCORE';
  if (s.confidence < minConfidence) return 'BELOW_MIN_CONFIDENCE';
  if (!(score > 0)) return 'ZERO_SCORE';
  return null;
}

interface Rankable {
  signal: Signal;
  score: number;
}

/** The documented total order; negative when `a` ranks first. */
export function compareRank(a: Rankable, b: Rankable): number {
  return (
    b.score - a.score ||
    safeNumber(b.signal.confidence) - safeNumber(a.signal.confidence) ||
    compareStrings(a.signal.agent, b.signal.agent) ||
    compareStrings(a.signal.symbol, b.signal.symbol) ||
    safeNumber(b.signal.direction) - safeNumber(a.signal.direction) ||
    compareStrings(a.signal.rationale ?? '', b.signal.rationale ?? '') ||
    // Only invalid signals get here (NaN, ±Infinity): their text form still orders them.
    compareStrings(String(a.signal.confidence), String(b.signal.confidence)) ||
    compareStrings(String(a.signal.direction), String(b.signal.direction))
  );
}

// NaN would make the comparator inconsistent (and the sort order input-dependent).
function safeNumber(n: number): number {
  return Number.isFinite(n) ? n : 0;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function validateOptions(options: ArbitrationOptions): {
  weights: Readonly<Record<string, number>>;
  minConfidence: number;
  maxOrders: number;
} {
  const weights = options.weights ?? {};
  for (const [agent, w] of Object.entries(weights)) {
    if (!Number.isFinite(w) || w < 0)
      throw new RangeError(`arbitration weight for "${agent}" must be a finite number ≥ 0, got ${w}`);
  }
  const minConfidence = options.minConfidence ?? DEFAULT_ARBITRATION_OPTIONS.minConfidence;
  if (!Number.isFinite(minConfidence) || minConfidence < 0 || minConfidence > 1) {
    throw new RangeError(`minConfidence must be in [0, 1], got ${minConfidence}`);
  }
  const maxOrders = options.maxOrders ?? DEFAULT_ARBITRATION_OPTIONS.maxOrders;
  if (!Number.isInteger(maxOrders) || maxOrders < 0)
    throw new RangeError(`maxOrders must be an integer ≥ 0, got ${maxOrders}`);
  return { weights, minConfidence, maxOrders };
}

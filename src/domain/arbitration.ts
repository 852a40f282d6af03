/**
 * Weighted arbitration (spec step 2): every signal is scored weight × confidence and the best signal
 * of each symbol is selected, every symbol considered. `maxOrders` is not spent here but by the
 * allocator, on signals that turn into orders: a selected signal that changes nothing (its target is
 * within the no-trade band of what is held) costs no budget, so it cannot crowd out another symbol's
 * signal that would trade (that other signal used to be dropped as MAX_ORDERS_REACHED and, from a
 * one-off event such as a cross, never came back). Every signal comes back with its weight, score and
 * the reason it was or was not selected, for the audit trail.
 *
 * Exits: a signal with direction 0 means "flat" — its agent no longer wants the position it asked
 * for (see signal.ts). When `holdings` is given, an exit for a symbol where nothing is held or resting
 * is NOTHING_TO_EXIT and one from an agent that did not set the symbol's position is EXIT_NOT_OWNER,
 * neither selected (they would change nothing). Exits only lower risk, so they are selected (reason
 * EXIT) without the confidence floor and outside the order budget, for every symbol no directional
 * signal was selected for; an exit needs a score > 0 like any signal (an agent weighted 0 is
 * switched off, exits too).
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
  /** Most selected signals that may turn into orders per cycle (spent by the allocator). Integer ≥ 0. */
  maxOrders?: number;
}

/** symbol → the agent whose signal set the position held or resting there (null: not known). */
export type Holdings = ReadonlyMap<string, string | null>;

export const DEFAULT_AGENT_WEIGHT = 1;

/** minConfidence 0.1 (weaker signals would size to dust), one order per cycle. */
export const DEFAULT_ARBITRATION_OPTIONS = Object.freeze({ minConfidence: 0.1, maxOrders: 1 });

export type ArbitrationReason =
  | 'SELECTED'
  /** direction 0 (flat), selected outside the maxOrders budget. */
  | 'EXIT'
  /** direction not an integer, confidence not a number in [0, 1]. */
  | 'INVALID_SIGNAL'
  | 'BELOW_MIN_CONFIDENCE'
  /** weight × confidence is 0 (e.g. an agent weighted 0 is switched off). */
  | 'ZERO_SCORE'
  /** a better-ranked signal for the same symbol was selected. */
  | 'SYMBOL_ALREADY_SELECTED'
  /** the allocator's order budget was spent by better-ranked signals. */
  | 'MAX_ORDERS_REACHED'
  /** an exit for a symbol where nothing is held or resting. */
  | 'NOTHING_TO_EXIT'
  /** an exit from an agent that did not set the symbol's position. */
  | 'EXIT_NOT_OWNER';

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
  /** The selected signals, best first: directional ones, then exits. */
  selected: Signal[];
  /** How many selected signals may become orders this cycle (the allocator spends it). */
  maxOrders: number;
}

export function arbitrate(
  signals: readonly Signal[],
  options: ArbitrationOptions = {},
  holdings?: Holdings,
): ArbitrationResult {
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
      eligibility: valid
        ? (exitBlock(signal, holdings) ?? eligibility(signal, score, minConfidence))
        : 'INVALID_SIGNAL',
    } as const;
  });
  scored.sort((a, b) => Number(a.eligibility !== null) - Number(b.eligibility !== null) || compareRank(a, b));

  const takenSymbols = new Set<string>();
  const selected: Signal[] = [];
  const reasons: ArbitrationReason[] = scored.map(({ signal, eligibility: blocked }) => {
    if (blocked !== null) return blocked;
    if (isExit(signal)) return 'EXIT'; // decided below, once every directional signal has had its turn
    if (takenSymbols.has(signal.symbol)) return 'SYMBOL_ALREADY_SELECTED';
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
  return { ranked, selected, maxOrders };
}

/** Why an exit would change nothing (see the module comment), or null. */
function exitBlock(s: Signal, holdings: Holdings | undefined): ArbitrationReason | null {
  if (holdings === undefined || !isExit(s)) return null;
  if (!holdings.has(s.symbol)) return 'NOTHING_TO_EXIT';
  return holdings.get(s.symbol) === s.agent ? null : 'EXIT_NOT_OWNER';
}

function isExit(s: Signal): boolean {
  return Math.sign(s.direction) === 0;
}

function isValidSignal(s: Signal): boolean {
  return Number.isInteger(s.direction) && Number.isFinite(s.confidence) && s.confidence >= 0 && s.confidence <= 1;
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

/**
 * What each arbitration reason (./arbitration.ts; every ranked signal's `reason` in the decision
 * entry) means. The source of the arbiter section of docs/reference/risk-codes.md; typed by
 * ArbitrationReason, so a reason added or removed there fails the typecheck until it is described here.
 */
import type { ArbitrationReason } from './arbitration.js';

export const ARBITRATION_REASON_CATALOG: { readonly [R in ArbitrationReason]: string } = {
  SELECTED: 'The best-ranked signal of its symbol: selected.',
  EXIT: 'Direction 0 (flat): selected outside the `ARBITER_MAX_ORDERS` budget and without the confidence floor.',
  INVALID_SIGNAL:
    'Direction not an integer or confidence not a number in [0, 1]: discarded (counted by `tcs_trading_invalid_signals_total`).',
  BELOW_MIN_CONFIDENCE: 'Confidence below `ARBITER_MIN_CONFIDENCE`.',
  ZERO_SCORE: 'Weight × confidence is 0 (e.g. an agent weighted 0 in `AGENT_WEIGHTS` is switched off).',
  SYMBOL_ALREADY_SELECTED: 'A better-ranked signal for the same symbol was selected.',
  MAX_ORDERS_REACHED: 'The allocator’s order budget was spent by better-ranked signals.',
  NOTHING_TO_EXIT: 'An exit for a symbol where nothing is held or resting.',
  EXIT_NOT_OWNER: 'An exit from an agent that did not set the symbol’s position.',
};

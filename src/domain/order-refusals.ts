/**
 * Why the order manager refused to submit an approved order (the `order_refused` line's `code`, and a
 * refused outcome in the decision entry): the venue never saw it. The source of the order manager
 * section of docs/reference/risk-codes.md; the gate's refusals are typed by OrderRefusalCode, so a
 * new code fails the typecheck until it is described here.
 */
import type { TokenErrorCode } from './order-token.js';

export type OrderRefusalCode =
  | TokenErrorCode
  | 'ABORTED'
  | 'NOT_REDUCE_ONLY'
  | 'TRADING_PAUSED'
  | 'TRADING_KILLED'
  | 'TOKEN_REPLAYED'
  | 'SUBMIT_FAILED';

export const ORDER_REFUSAL_CATALOG: { readonly [C in OrderRefusalCode]: string } = {
  TRADING_PAUSED: 'The system is paused (the order manager is halted, or the stored state is `paused`).',
  TRADING_KILLED: 'The system is killed (the order manager is stopped, or the stored state is `killed`).',
  TOKEN_MALFORMED: 'The order token cannot be read.',
  TOKEN_INVALID: 'The order token’s signature does not match the order (`RISK_HMAC_SECRET`).',
  TOKEN_EXPIRED: 'The approval is older than `TOKEN_TTL_MS`.',
  EPOCH_STALE: 'The control epoch moved since the approval (a pause, resume or kill came in between).',
  TOKEN_REPLAYED: 'The client order id was already used: an approval is spent once.',
  NOT_REDUCE_ONLY: 'A command may only submit reduce-only orders.',
  ABORTED: 'The job was aborted before submission (a pause or kill).',
  SUBMIT_FAILED: 'The submission failed with an error (decision entry only; the error is logged).',
};

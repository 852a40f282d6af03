/**
 * HTTP for the control plane's failures: each result the application layer can refuse with gets
 * its status and its stable `TCS_*` code, in the standard error body. The one place that mapping
 * lives, so the routes stay "call, then answer".
 */
import type { FastifyReply } from 'fastify';
import type { ControlFailure, ControlOutcome } from '../../application/control-results.js';
import { sendError } from '../errors.js';

const HTTP_FOR: Record<ControlFailure['error'], { status: number; code: string }> = {
  state_conflict: { status: 409, code: 'TCS_STATE_CONFLICT' },
  unknown_symbol: { status: 422, code: 'TCS_UNKNOWN_SYMBOL' },
};

/** The value for a 200, or the failure sent with its status (the handler then returns the reply). */
export function answer<T>(reply: FastifyReply, outcome: ControlOutcome<T, ControlFailure>): T | FastifyReply {
  if (outcome.ok) return outcome.value;
  const { status, code } = HTTP_FOR[outcome.error];
  return sendError(reply, status, code, outcome.message);
}

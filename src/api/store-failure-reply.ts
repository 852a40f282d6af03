/**
 * The 503 a store failure gets, for every route: the stable code of the failure and a message that
 * tells the operator what did NOT happen (nothing was recorded, so pressing again is the way to
 * retry), why (the backend's own reason, never a secret: adapters redact it) and what the trading
 * process does meanwhile (it halts on its own when it cannot reach the store).
 */
import type { FastifyRequest } from 'fastify';
import { KillCancelsNotQueuedError } from '../application/kill-switch.js';
import { KillFlattenNotQueuedError } from '../application/flatten.js';
import { StoreFaultError } from '../ports/store-errors.js';
import type { StoreUnavailableError } from '../ports/store-errors.js';

const HALTS =
  'The trading process halts on its own when it cannot reach the store (it opens no new exposure until the store is back).';

export function storeFailureReply(
  err: StoreUnavailableError | StoreFaultError,
  request: FastifyRequest,
): { code: string; message: string } {
  const why =
    err instanceof StoreFaultError
      ? `the store is not the one this service knew (${err.kind}): ${err.message}`
      : `the store is unavailable: ${err.message}`;
  return { code: err.code, message: `${headline(err, request)}: ${why}. ${HALTS}` };
}

function headline(err: Error, request: FastifyRequest): string {
  if (err instanceof KillCancelsNotQueuedError)
    return 'The kill WAS recorded, but its cancel command was NOT recorded; press the kill switch again to queue it (safe to repeat)';
  if (err instanceof KillFlattenNotQueuedError)
    return 'The kill WAS recorded (and its cancels queued), but its flatten was NOT recorded; press the kill switch with flatten again, or POST /control/flatten (safe to repeat)';
  if (request.method === 'GET') return 'Could not read the store (nothing was changed)';
  const what = request.routeOptions.url === '/control/kill-switch' ? 'The kill was' : 'The change was';
  return `${what} NOT recorded; try again once the store is back`;
}

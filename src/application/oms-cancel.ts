/**
 * Asking the order manager for a cancel from a promise (the cycle's market step, a halt's recovery)
 * and waiting for it: the request is an `oms.cancel` job like every venue mutation (one way out to
 * the venue), with a receipt (job-receipts.ts) the executor settles when the job is done or failed.
 */
import type { VenueOrder } from '../domain/orders.js';
import type { OrderManagerControl } from '../../machines/messages.js';
import type { JobReceipts } from './job-receipts.js';

/** Cancels the open orders of `symbols` (all when omitted); resolves with the orders cancelled. */
export type CancelRequest = (reason: string, symbols?: readonly string[]) => Promise<VenueOrder[]>;

export function cancelThroughOms(
  oms: { send(event: OrderManagerControl): void },
  receipts: JobReceipts,
): CancelRequest {
  return (reason, symbols) => {
    const { id, done } = receipts.open();
    oms.send({ type: 'oms.cancel', reason, symbols: symbols ?? null, receipt: id });
    return done;
  };
}

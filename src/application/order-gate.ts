/**
 * The one gate every order passes right before the venue. It re-reads the stored control record and
 * then, with no await in between (so nothing can change under the verdict), checks: for a cycle's
 * order, that the order manager is still accepting and the stored state is running; for every
 * order, the token (constant time: signature, expiry, epoch still current); and for a cycle's order,
 * that its client order id was never used. A command's reduce-only order passes in every state and
 * relies on the venue's idempotency by client order id, so a retried command is not refused.
 */
import { verifyApproval } from '../domain/order-token.js';
import type { OrderRefusalCode } from '../domain/order-refusals.js';
import type { ApprovedOrder } from '../domain/orders.js';
import type { UsedTokenLedger } from '../domain/used-token-ledger.js';
import type { Clock } from '../ports/clock.js';
import type { ControlStore } from '../ports/control-store.js';
import type { OmsMode } from '../../machines/order-manager.machine.js';
import type { SubmissionPurpose } from '../../machines/messages.js';

export interface Refusal {
  code: OrderRefusalCode;
  message: string;
}

export interface OrderGateDeps {
  control: ControlStore;
  clock: Clock;
  secret: string;
  ledger: UsedTokenLedger;
}

/** Returns a refusal, or null when the order may go to the venue now. */
export type OrderGate = (
  approval: ApprovedOrder,
  signal: AbortSignal,
  purpose: SubmissionPurpose,
  /** The order manager's current mode, read synchronously right before the verdict. */
  orderManagerMode: () => OmsMode,
) => Promise<Refusal | null>;

export function createOrderGate(deps: OrderGateDeps): OrderGate {
  return async (approval, signal, purpose, orderManagerMode) => {
    const control = await deps.control.read();
    if (signal.aborted) return { code: 'ABORTED', message: 'the job was aborted before submission' };
    // Only a reduce-only order may pass in every state; anything else under the command purpose is a bug.
    if (purpose === 'command' && !approval.order.reduceOnly) {
      return { code: 'NOT_REDUCE_ONLY', message: 'a command may only submit reduce-only orders' };
    }
    if (purpose === 'cycle') {
      const mode = orderManagerMode();
      if (mode !== 'accepting') {
        return {
          code: mode === 'stopped' ? 'TRADING_KILLED' : 'TRADING_PAUSED',
          message: `the order manager is ${mode}`,
        };
      }
      if (control.state !== 'running') {
        return {
          code: control.state === 'killed' ? 'TRADING_KILLED' : 'TRADING_PAUSED',
          message: `system is ${control.state} (store)`,
        };
      }
    }
    const verdict = verifyApproval(approval, {
      secret: deps.secret,
      now: deps.clock.now(),
      currentEpoch: control.epoch,
    });
    if (!verdict.ok) return { code: verdict.code, message: verdict.message };
    if (purpose === 'cycle' && !deps.ledger.use(approval.order.clientOrderId)) {
      return { code: 'TOKEN_REPLAYED', message: `client order id ${approval.order.clientOrderId} was already used` };
    }
    return null;
  };
}

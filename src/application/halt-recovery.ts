/**
 * Ending a safety halt, once the checks pass again (the root statechart's `recoverHalt` actor):
 * cancel open orders once more through the order manager (the halt's first cancel may have failed
 * with the store), then record the halt in the audit trail, which it could not reach while the store
 * was away — one `trading_halt` entry per halt, the replaced ones first (src/domain/halts.ts). Throws
 * when either fails: the halt then stays, and the next passing check tries again.
 */
import { haltEntries } from '../domain/halts.js';
import type { SafetyHalt } from '../domain/halts.js';
import type { EventStore } from '../ports/event-store.js';
import type { HaltRecoveryInput } from '../../machines/trading.machine.js';
import type { CancelRequest } from './oms-cancel.js';

export type HaltRecovery = (input: HaltRecoveryInput, cancel: CancelRequest) => Promise<SafetyHalt>;

export function createHaltRecovery(events: EventStore): HaltRecovery {
  return async ({ halt, until }, cancel) => {
    const cancelled = await cancel(`halt ended: ${halt.reason}`);
    const named = cancelled.map((o) => ({ client_order_id: o.clientOrderId, symbol: o.symbol }));
    for (const entry of haltEntries(halt, until, named)) {
      await events.append({ kind: 'trading_halt', at: entry.at, body: { ...entry.body } });
    }
    return halt;
  };
}

/**
 * Waiting for an order manager job from outside the actor system. Every venue mutation is a job of
 * the order manager (machines/order-manager.machine.ts); the code that asks for a cancel from a
 * promise — the cycle's market step (the drawdown breaker) and a halt's recovery — opens a receipt,
 * names it in the job (`oms.cancel`), and awaits it; the executor settles it when the job is done or
 * failed. Events carry only the receipt's id, so they stay plain data (the inspector shows them).
 */
import type { VenueOrder } from '../domain/orders.js';

export interface JobReceipts {
  /** A new receipt: its id for the job, and the promise of the orders the job cancelled. */
  open(): { id: string; done: Promise<VenueOrder[]> };
  settle(id: string | null, cancelled: VenueOrder[]): void;
  fail(id: string | null, err: unknown): void;
}

export function createJobReceipts(): JobReceipts {
  const waiting = new Map<string, { resolve(value: VenueOrder[]): void; reject(err: unknown): void }>();
  let next = 0;
  return {
    open() {
      const id = `receipt-${++next}`;
      const done = new Promise<VenueOrder[]>((resolve, reject) => waiting.set(id, { resolve, reject }));
      return { id, done };
    },
    settle(id, cancelled) {
      if (id === null) return;
      waiting.get(id)?.resolve(cancelled);
      waiting.delete(id);
    },
    fail(id, err) {
      if (id === null) return;
      waiting.get(id)?.reject(err);
      waiting.delete(id);
    },
  };
}

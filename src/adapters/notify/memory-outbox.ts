/**
 * A notification outbox in the notifier's memory, for the notices that cannot go through the store
 * because they are about the store (store_fault, store_recovered): the same NotifyOutbox port, so
 * they are posted, signed, retried and backed off by the same deliverDue as every other notice. It
 * is lost with the process (at least once across a crash: the next notifier sees the fault anew).
 */
import type { NotifyOutbox, OutboxDelivery } from '../../ports/notify-outbox.js';

/** Delivered entries kept for nothing but `recent`: a bound, not a record. */
const KEEP = 100;

export function createMemoryOutbox(): NotifyOutbox {
  let cursor = 0;
  let deliveries: OutboxDelivery[] = [];
  return {
    cursor: () => Promise.resolve(cursor),
    enqueue(throughSeq, fresh) {
      if (!Number.isInteger(throughSeq) || throughSeq < cursor)
        return Promise.reject(new Error(`memory outbox: cursor ${cursor} cannot move to ${throughSeq}`));
      const known = new Set(deliveries.map((d) => d.id));
      deliveries.push(...fresh.filter((d) => !known.has(d.id) && known.add(d.id)).map((d) => ({ ...d })));
      cursor = throughSeq;
      return Promise.resolve();
    },
    due(nowMs, limit, target) {
      const due = deliveries
        .filter((d) => d.state === 'pending' && d.next_at <= nowMs && (target === undefined || d.target === target))
        .sort((a, b) => a.seq - b.seq)
        .slice(0, limit);
      return Promise.resolve(due.map((d) => ({ ...d })));
    },
    settle(id, outcome) {
      const d = deliveries.find((x) => x.id === id);
      if (!d || d.state === 'delivered') return Promise.resolve();
      d.attempts += 1;
      if (outcome.delivered) Object.assign(d, { state: 'delivered', delivered_at: outcome.at, last_error: null });
      else Object.assign(d, { last_error: outcome.error, next_at: outcome.nextAt });
      const delivered = deliveries.filter((x) => x.state === 'delivered');
      if (delivered.length > KEEP) {
        const drop = new Set(delivered.slice(0, delivered.length - KEEP).map((x) => x.id));
        deliveries = deliveries.filter((x) => !drop.has(x.id));
      }
      return Promise.resolve();
    },
    recent: (limit) => Promise.resolve([...deliveries].sort((a, b) => b.seq - a.seq).slice(0, limit)),
    backlog: () => Promise.resolve(deliveries.filter((d) => d.state === 'pending').length),
  };
}

/**
 * The notification outbox on the store's KeyValueStore port, so Redis and SQLite both hold it with
 * the same code: one document (a per-key atomic write) carries the cursor and the deliveries, which
 * makes "queue these and move the cursor" one write. One notifier writes it at a time (it runs in one
 * process); delivered entries are kept for the console's list up to KEEP_DELIVERED.
 */
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { NotifyOutbox, OutboxDelivery } from '../../ports/notify-outbox.js';

export const OUTBOX_KEY = 'notify:outbox';
const KEEP_DELIVERED = 500;

interface OutboxDocument {
  v: 1;
  cursor: number;
  deliveries: OutboxDelivery[];
}

function parse(raw: unknown): OutboxDocument {
  if (raw === null || raw === undefined) return { v: 1, cursor: 0, deliveries: [] };
  const doc = raw as Partial<OutboxDocument>;
  if (doc.v !== 1 || typeof doc.cursor !== 'number' || !Array.isArray(doc.deliveries)) {
    throw new Error(`${OUTBOX_KEY}: not a notification outbox (version 1)`);
  }
  return doc as OutboxDocument;
}

export function createKvOutbox(kv: KeyValueStore): NotifyOutbox {
  const read = async () => parse(await kv.get(OUTBOX_KEY));
  const write = (doc: OutboxDocument) => kv.set(OUTBOX_KEY, trim(doc));
  return {
    async cursor() {
      return (await read()).cursor;
    },
    async enqueue(throughSeq, deliveries) {
      const doc = await read();
      if (!Number.isInteger(throughSeq) || throughSeq < doc.cursor) {
        throw new Error(`notify outbox: cursor ${doc.cursor} cannot move to ${throughSeq}`);
      }
      const known = new Set(doc.deliveries.map((d) => d.id));
      const fresh = deliveries.filter((d) => !known.has(d.id) && known.add(d.id));
      await write({ ...doc, cursor: throughSeq, deliveries: [...doc.deliveries, ...fresh] });
    },
    async due(nowMs, limit, target) {
      const doc = await read();
      return doc.deliveries
        .filter((d) => d.state === 'pending' && d.next_at <= nowMs && (target === undefined || d.target === target))
        .sort((a, b) => a.seq - b.seq)
        .slice(0, limit);
    },
    async settle(id, outcome) {
      const doc = await read();
      const d = doc.deliveries.find((x) => x.id === id);
      if (!d || d.state === 'delivered') return;
      d.attempts += 1;
      if (outcome.delivered) {
        d.state = 'delivered';
        d.delivered_at = outcome.at;
        d.last_error = null;
      } else {
        d.last_error = outcome.error;
        d.next_at = outcome.nextAt;
      }
      await write(doc);
    },
    async recent(limit) {
      const doc = await read();
      return [...doc.deliveries].sort((a, b) => b.seq - a.seq).slice(0, limit);
    },
    async backlog() {
      return (await read()).deliveries.filter((d) => d.state === 'pending').length;
    },
  };
}

/** Drops the oldest delivered entries beyond KEEP_DELIVERED; pending ones are never dropped. */
function trim(doc: OutboxDocument): OutboxDocument {
  const delivered = doc.deliveries.filter((d) => d.state === 'delivered');
  if (delivered.length <= KEEP_DELIVERED) return doc;
  const drop = new Set(delivered.slice(0, delivered.length - KEEP_DELIVERED).map((d) => d.id));
  return { ...doc, deliveries: doc.deliveries.filter((d) => !drop.has(d.id)) };
}

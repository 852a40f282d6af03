/**
 * Records the fills a venue reports outside a submission (src/domain/fill-entry.ts): each as its
 * `order_filled` event line at once, and as an `order_filled` audit entry. The venue hands such a
 * fill over once, so an entry the store refused is not dropped: it waits, in order, and is tried
 * again at the next call (every cycle makes one), ahead of the newer fills. A refused write is logged,
 * never thrown: the fill has happened at the venue, and the store's fault is judged where every write
 * meets it (the cycle's decision entry, the safety monitor), not by losing the cycle that found it.
 */
import type { Logger } from 'pino';
import { eventLine } from '../domain/event-lines.js';
import { FILL_ENTRY_KIND, fillEntryBody } from '../domain/fill-entry.js';
import type { Fill } from '../domain/orders.js';
import type { Clock } from '../ports/clock.js';
import type { NewAuditEvent } from '../ports/event-store.js';
import type { Store } from '../ports/store.js';
import type { TradingEvents } from '../ports/trading-events.js';

/** Entries kept while the store refuses them; beyond, the oldest go (and the log says how many). */
const MAX_WAITING = 10_000;

export interface FillAuditDeps {
  store: Pick<Store, 'events'>;
  events: TradingEvents;
  clock: Clock;
  log: Pick<Logger, 'warn'>;
}

export interface FillAudit {
  /** Tells and records `fills` (found by the market's advance or by a cancel); resolves when stored or set aside. */
  record(fills: readonly Fill[], found: 'market' | 'cancel'): Promise<void>;
}

export function createFillAudit(deps: FillAuditDeps): FillAudit {
  const waiting: NewAuditEvent[] = [];
  let dropped = 0;
  // One writer at a time: the cycle and a cancel can both record, and the entries keep their order.
  let writing: Promise<void> = Promise.resolve();

  const drain = async (): Promise<void> => {
    while (waiting.length > 0) {
      try {
        await deps.store.events.append(waiting[0]!);
      } catch (err) {
        deps.log.warn(
          { err: err instanceof Error ? err.message : String(err), waiting: waiting.length },
          'fills not yet in the audit trail: the store refused the entry; tried again at the next cycle',
        );
        return;
      }
      waiting.shift();
    }
  };

  return {
    record(fills, found) {
      const at = new Date(deps.clock.now()).toISOString();
      for (const fill of fills) {
        deps.events.emit(eventLine.orderFilled(fill));
        waiting.push({ kind: FILL_ENTRY_KIND, at, symbol: fill.symbol, body: { ...fillEntryBody(fill, found) } });
      }
      if (waiting.length > MAX_WAITING) {
        dropped += waiting.length - MAX_WAITING;
        waiting.splice(0, waiting.length - MAX_WAITING);
        deps.log.warn({ dropped }, 'fills dropped from the audit trail: the store refused them for too long');
      }
      if (waiting.length === 0) return writing;
      writing = writing.then(drain);
      return writing;
    },
  };
}

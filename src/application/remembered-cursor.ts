/**
 * The notifier's outbox with its position remembered in memory. A store that comes back empty or
 * replaced (a Redis restarted without its data, another file at the path, a restored backup) shows
 * an outbox whose cursor is behind the one this notifier last saw, or none (cursor 0). Read as a fresh
 * start, that would queue the whole trail again; so a cursor behind the remembered one is a store
 * fault (StoreFaultError): nothing is queued or written until the store shows the position again.
 */
import type { NotifyOutbox } from '../ports/notify-outbox.js';
import { StoreFaultError } from '../ports/store-errors.js';

export interface RememberedCursorOutbox extends NotifyOutbox {
  /** The furthest cursor seen or written (0 before any). */
  remembered(): number;
}

export function rememberedCursor(outbox: NotifyOutbox): RememberedCursorOutbox {
  let furthest = 0;
  return {
    ...outbox,
    async cursor() {
      const cursor = await outbox.cursor();
      if (cursor < furthest)
        throw new StoreFaultError(
          cursor === 0 ? 'empty' : 'rolled_back',
          `the notification outbox's cursor is ${cursor}, behind ${furthest} where this notifier left it: the store came back ${cursor === 0 ? 'empty or replaced' : 'rolled back'}; nothing is queued again from it (restart tcs notify once the store is the right one)`,
        );
      furthest = cursor;
      return cursor;
    },
    async enqueue(throughSeq, deliveries) {
      await outbox.enqueue(throughSeq, deliveries);
      furthest = Math.max(furthest, throughSeq);
    },
    remembered: () => furthest,
  };
}

/**
 * The event hub's audit tail costs little while nothing is new: it reads the head, not a page. Found
 * on reading event-hub.ts: every tick (250 ms) asked for a page of 200 entries ending past the cursor,
 * which an idle trail answered with the 200 newest, already delivered entries: each API process
 * re-read 800 entries a second for nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { EventHub } from '../../src/api/events/event-hub.js';
import { systemClock } from '../../src/ports/clock.js';
import type { AuditEvent, EventQuery } from '../../src/ports/event-store.js';
import type { Store } from '../../src/ports/store.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

describe('event hub audit tail', () => {
  let t: TestStore | undefined;
  let hub: EventHub | undefined;
  afterEach(async () => {
    await hub?.close();
    await t?.cleanup();
  });

  it('reads at most one entry per tick while the trail is idle, and still follows new entries', async () => {
    t = await openTestStore('sqlite');
    for (let i = 0; i < 300; i++)
      await t.store.events.append({ kind: 'note', at: new Date().toISOString(), body: { i } });
    // Entries each tail query returned, in order.
    const reads: number[] = [];
    const store: Store = {
      ...t.store,
      events: {
        ...t.store.events,
        query: async (q: EventQuery): Promise<AuditEvent[]> => {
          const page = await t!.store.events.query(q);
          reads.push(page.length);
          return page;
        },
      } as Store['events'],
    };
    hub = new EventHub(store, systemClock, pino({ level: 'silent' }), {
      tailMs: 20,
      heartbeatMs: 10_000,
      machinesMs: 10_000,
      healthMs: 10_000,
      keepAliveMs: 10_000,
    });
    await hub.start();
    expect(hub.cursor).toBe(300);
    const startedAt = reads.length;
    await vi.waitFor(() => expect(reads.length - startedAt).toBeGreaterThanOrEqual(20), { timeout: 10_000 });
    const idle = reads.slice(startedAt);
    expect(Math.max(...idle)).toBeLessThanOrEqual(1);
    // New entries still reach the cursor, more than a page of them too.
    for (let i = 0; i < 250; i++)
      await t.store.events.append({ kind: 'note', at: new Date().toISOString(), body: { i } });
    await vi.waitFor(() => expect(hub!.cursor).toBe(550), { timeout: 10_000 });
  });
});

/**
 * The audit head check of the trusted control, on a real SQLite store whose trail a test view can
 * cut short (as a Redis restarted from an older snapshot would): a head fault is sticky for the store
 * it was found on, but an adopted store is accepted by the same process (no restart needed); checks
 * that would overlap (an API heartbeat slower than its interval, replies in order on one connection)
 * never judge one check's head against the memory another moved, so there is no false rollback; and
 * what a check saves in the latch keeps a kill the process saw meanwhile (found in review).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { trustedControl } from '../../src/application/trusted-control.js';
import type { ControlRecord } from '../../src/domain/control.js';
import { NO_MEMORY } from '../../src/domain/store-identity.js';
import type { StoreMemory } from '../../src/domain/store-identity.js';
import type { AuditEvent, EventQuery, EventStore } from '../../src/ports/event-store.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const append = (events: EventStore, n: number) =>
  events.append({ kind: 'note', at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), body: { n } });

describe('trusted control: the audit head', () => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('a trail gone back is a fault that stays, until the operator adopts the store: then the same process accepts it', async () => {
    t = await openTestStore('sqlite');
    const { store } = t;
    for (let i = 1; i <= 5; i++) await append(store.events, i);
    let cut: number | null = null;
    const events: EventStore = {
      ...store.events,
      query: async (q: EventQuery) => (await store.events.query(q)).filter((e) => cut === null || e.seq <= cut),
    };
    const trusted = trustedControl(store.control, { memory: NO_MEMORY, events });
    const before = await trusted.read();
    await trusted.checkHead();
    cut = 3;
    await expect(trusted.checkHead()).rejects.toMatchObject({ kind: 'rolled_back' });
    await expect(trusted.read()).rejects.toMatchObject({ kind: 'rolled_back' });
    await store.control.adopt(
      { ...before, state: 'killed', epoch: before.epoch + 1, store_id: 'adopted-1', adopted_from: before.store_id },
      { kind: 'store_adopted', at: new Date().toISOString(), body: {} },
    );
    expect(await trusted.read()).toMatchObject({ store_id: 'adopted-1', state: 'killed' });
    await expect(trusted.checkHead()).resolves.toBeUndefined();
  });

  it('checks that would overlap, replies in order on one connection, see no rollback', async () => {
    t = await openTestStore('sqlite');
    const { store } = t;
    for (let i = 1; i <= 3; i++) await append(store.events, i);
    let line = Promise.resolve();
    const events: EventStore = {
      ...store.events,
      query: (q: EventQuery) => {
        const executed = store.events.query(q); // run when asked, answered in turn, 5 ms apart
        const reply = line.then(async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return executed;
        });
        line = reply.then(() => undefined);
        return reply as Promise<AuditEvent[]>;
      },
    };
    const trusted = trustedControl(store.control, { memory: NO_MEMORY, events });
    await trusted.read();
    await trusted.checkHead();
    await append(store.events, 4);
    const first = trusted.checkHead();
    await new Promise((resolve) => setTimeout(resolve, 2));
    await append(store.events, 5);
    const second = trusted.checkHead();
    expect(await Promise.allSettled([first, second])).toEqual([
      { status: 'fulfilled', value: undefined },
      { status: 'fulfilled', value: undefined },
    ]);
    await trusted.checkHead();
    expect(trusted.memory().head?.seq).toBe(5);
  });

  it('what a check saves keeps a kill a read saw while the check waited', async () => {
    t = await openTestStore('sqlite');
    const { store } = t;
    await append(store.events, 1);
    let release: () => void = () => {};
    const events: EventStore = {
      ...store.events,
      query: async (q: EventQuery) => {
        await new Promise<void>((resolve) => (release = resolve));
        return store.events.query(q);
      },
    };
    const saved: Array<{ memory: StoreMemory; record: ControlRecord }> = [];
    const start = await store.control.read();
    const trusted = trustedControl(store.control, {
      memory: { storeId: start.store_id, epoch: 0, killedAt: null, head: { seq: 0, hash: '0'.repeat(64) } },
      events,
      remember: async (memory, record) => void saved.push({ memory, record }),
    });
    await trusted.read();
    const check = trusted.checkHead(); // waits on the audit head
    await store.control.compareAndSet({
      expectedEpoch: 0,
      expectedStoreId: start.store_id,
      next: { ...start, state: 'killed', epoch: 1 },
      audit: { kind: 'control', at: new Date().toISOString(), body: {} },
    });
    await trusted.read(); // the kill, seen
    release();
    await check;
    const last = saved.at(-1)!;
    expect(last.memory).toMatchObject({ epoch: 1, killedAt: 1 });
    expect(last.record.state).toBe('killed');
  });
});

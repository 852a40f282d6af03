/**
 * Contract for NotifyOutbox adapters (src/ports/notify-outbox.ts): the cursor and the queue move
 * together, nothing is queued twice under one delivery id, state survives a reconnect (a restart).
 */
import { describe, expect, it } from 'vitest';
import type { NotifyOutbox, OutboxDelivery } from '../../src/ports/notify-outbox.js';
import type { Store } from '../../src/ports/store.js';
import { storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

const d = (id: string, seq: number, next_at = 0): OutboxDelivery => ({
  id,
  target: 't1',
  notification_id: `n-${id}`,
  kind: 'kill',
  seq,
  at: '2026-11-28T07:00:00.000Z',
  title: 'Trading killed',
  body: { schema: 'tcs.notification/1', id },
  state: 'pending',
  attempts: 0,
  next_at,
  last_error: null,
  delivered_at: null,
});

export function notifyOutboxContract(
  name: string,
  open: StoreFactory,
  openSecond: StoreFactory,
  outboxOf: (store: Store) => NotifyOutbox,
): void {
  describe(`NotifyOutbox contract: ${name}`, () => {
    const stores = storeHarness(open, openSecond);

    it('starts empty with cursor 0', async () => {
      const o = outboxOf(await stores.one());
      expect(await o.cursor()).toBe(0);
      expect(await o.backlog()).toBe(0);
      expect(await o.recent(10)).toEqual([]);
    });

    it('enqueue moves the cursor and dedupes by delivery id', async () => {
      const o = outboxOf(await stores.one());
      await o.enqueue(3, [d('a', 2), d('b', 3)]);
      await o.enqueue(3, [d('a', 2)]);
      expect(await o.cursor()).toBe(3);
      expect(await o.backlog()).toBe(2);
      await expect(o.enqueue(2, [d('c', 2)])).rejects.toThrow(/cursor/);
      expect(await o.backlog()).toBe(2);
    });

    it('due honours next_at; settle records failures and deliveries; a delivered id is never queued again', async () => {
      const o = outboxOf(await stores.one());
      await o.enqueue(5, [d('a', 4), d('b', 5, 10_000)]);
      expect((await o.due(1000, 10)).map((x) => x.id)).toEqual(['a']);
      await o.settle('a', { delivered: false, error: 'HTTP 500', nextAt: 2000 });
      expect(await o.due(1000, 10)).toEqual([]);
      const [retry] = await o.due(2000, 10);
      expect(retry).toMatchObject({ id: 'a', attempts: 1, last_error: 'HTTP 500' });
      await o.settle('a', { delivered: true, at: '2026-11-28T07:00:02.000Z' });
      await o.enqueue(5, [d('a', 4)]);
      expect(await o.backlog()).toBe(1);
      const recent = await o.recent(10);
      expect(recent.map((x) => [x.id, x.state])).toEqual([
        ['b', 'pending'],
        ['a', 'delivered'],
      ]);
    });

    it("due of one target leaves out the others' deliveries, however many are older", async () => {
      const o = outboxOf(await stores.one());
      await o.enqueue(9, [{ ...d('old1', 1), target: 'down' }, { ...d('old2', 2), target: 'down' }, d('mine', 9)]);
      expect((await o.due(1000, 1)).map((x) => x.id)).toEqual(['old1']);
      expect((await o.due(1000, 1, 't1')).map((x) => x.id)).toEqual(['mine']);
      expect((await o.due(1000, 10, 'down')).map((x) => x.id)).toEqual(['old1', 'old2']);
    });

    it('the second connection (a restarted process) sees the same cursor and queue', async () => {
      const [a, b] = await stores.two();
      await outboxOf(a).enqueue(7, [d('x', 7)]);
      expect(await outboxOf(b).cursor()).toBe(7);
      expect((await outboxOf(b).due(0, 10)).map((x) => x.id)).toEqual(['x']);
    });
  });
}

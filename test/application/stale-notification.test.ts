/**
 * Finding 2 of issue 18: notifications are hints, not records to judge. On Redis the control
 * notification travels on the subscriber connection and a direct read on the command connection, so
 * under rapid changes a notification for epoch N can arrive after a direct read already saw N + 2.
 * Judged as it came, it looked like a store gone back in time (`store_rolled_back`: every resting
 * order cancelled, the operator told to adopt the store). Here that late message is published for
 * real on the store's own channel after a newer read: nothing is distrusted, and what the listener
 * hears is the store's current record.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { applyControl } from '../../src/application/control-transition.js';
import { trustedControl } from '../../src/application/trusted-control.js';
import { redisKeys } from '../../src/adapters/redis/keys.js';
import type { ControlRecord } from '../../src/domain/control.js';
import { NO_MEMORY } from '../../src/domain/store-identity.js';
import type { StoreFaultError } from '../../src/ports/store-errors.js';
import { TEST_REDIS_URL } from '../support/redis.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const who = (s: number) => ({ actor: 'test', at: new Date(Date.UTC(2026, 0, 5, 12, 0, s)).toISOString() });

describe('a late control notification', () => {
  let t: TestStore | undefined;
  let publisher: Redis | undefined;
  afterEach(async () => {
    publisher?.disconnect();
    await t?.cleanup();
    t = undefined;
  });

  it('after a newer direct read is a hint to read again, never a rollback', async () => {
    t = await openTestStore('redis');
    const distrusted: StoreFaultError[] = [];
    const heard: ControlRecord[] = [];
    const trusted = trustedControl(t.store.control, { memory: NO_MEMORY, distrusted: (err) => distrusted.push(err) });
    const unsubscribe = await trusted.subscribe((record) => heard.push(record));
    await applyControl(t.store.control, { type: 'control.pause', reason: 'p1' }, who(1));
    const stale = await t.store.control.read(); // paused@1, as its notification carried it
    await applyControl(t.store.control, { type: 'control.resume', reason: 'r' }, who(2));
    await applyControl(t.store.control, { type: 'control.pause', reason: 'p2' }, who(3));
    await expect(trusted.read()).resolves.toMatchObject({ epoch: 3 });
    await until(() => heard.length >= 3);
    heard.length = 0;

    // The late notification of epoch 1, on the real channel, after the process has read epoch 3.
    const prefix = new URL(t.url).searchParams.get('prefix') ?? '';
    publisher = new Redis(TEST_REDIS_URL);
    await publisher.publish(redisKeys(prefix).controlChannel, JSON.stringify(stale));
    await until(() => heard.length >= 1 || distrusted.length >= 1);

    expect(distrusted).toEqual([]);
    expect(heard.every((r) => r.epoch === 3 && r.state === 'paused')).toBe(true);
    expect(trusted.memory().epoch).toBe(3);
    await unsubscribe();
  });
});

async function until(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The fills a venue hands over once (a resting order's, found by the market's advance or by a cancel)
 * while the store refuses writes: a redis-server of the test's own at `maxmemory 1` (noeviction), a
 * real OOM refusal. The fill's event line goes out at once; its `order_filled` entry is not dropped:
 * it waits and is written, in order and once, at the first call after the store takes writes again.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import { createFillAudit } from '../../src/application/fill-audit.js';
import type { EventLine } from '../../src/domain/event-lines.js';
import type { Fill } from '../../src/domain/orders.js';
import type { Store } from '../../src/ports/store.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { initialised } from '../support/stores.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const fill = (id: string, qty: number): Fill => ({
  clientOrderId: id,
  symbol: 'BTCUSDT',
  side: 'BUY',
  qty,
  price: 50_000,
  fee: -0.1,
  liquidity: 'maker',
  ts: T0,
});

describe('fill audit over a store that refuses writes (own redis-server)', () => {
  let redis: OwnRedis;
  let store: Store;
  let admin: Redis;
  beforeEach(async () => {
    redis = await startOwnRedis();
    store = await initialised(await openRedisStore({ url: redis.url, onError: () => {} }));
    admin = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  });
  afterEach(async () => {
    admin.disconnect();
    await store.close();
    await redis.cleanup();
  });

  it('keeps the refused entries and writes them first, in order, once writes are taken again', async () => {
    const lines: EventLine[] = [];
    const warnings: string[] = [];
    const audit = createFillAudit({
      store,
      events: { emit: (line) => lines.push(line) },
      clock: { now: () => T0 + 1_000 },
      log: { warn: (_: unknown, msg?: string) => warnings.push(msg ?? '') } as unknown as Logger,
    });

    await admin.config('SET', 'maxmemory', '1');
    await audit.record([fill('a-1', 0.1), fill('a-2', 0.2)], 'market');
    // Told at once, though not yet recorded.
    expect(lines.map((l) => (l as { client_order_id?: string }).client_order_id)).toEqual(['a-1', 'a-2']);
    expect(warnings.some((w) => /store refused/.test(w))).toBe(true);
    await admin.config('SET', 'maxmemory', '0');
    expect(await store.events.query({ kind: 'order_filled', limit: 10 })).toEqual([]);

    await audit.record([fill('b-1', 0.3)], 'cancel');
    const entries = (await store.events.query({ kind: 'order_filled', limit: 10 })).reverse();
    expect(entries.map((e) => [e.body.client_order_id, e.body.qty, e.body.source])).toEqual([
      ['a-1', 0.1, 'resting'],
      ['a-2', 0.2, 'resting'],
      ['b-1', 0.3, 'cancel'],
    ]);
    expect(entries[0]!.body.filled_at).toBe(new Date(T0).toISOString());
    // Nothing waits any more: a call with no fills writes nothing twice.
    await audit.record([], 'market');
    expect(await store.events.query({ kind: 'order_filled', limit: 10 })).toHaveLength(3);
  });
});

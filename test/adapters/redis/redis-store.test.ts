/**
 * Runs the four store contracts against a real Redis (never mocked, never skipped: without Redis
 * this file fails with instructions), each store under a fresh key prefix, plus the Redis-only
 * promises: masked descriptions, fail-fast opening, ping, close, and the key layout staying inside
 * the prefix.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/domain/canonical-json.js';
import { describeRedis } from '../../../src/adapters/redis/connection.js';
import { redisKeys } from '../../../src/adapters/redis/keys.js';
import type { RedisKeys } from '../../../src/adapters/redis/keys.js';
import { openRedisStore } from '../../../src/adapters/redis/redis-store.js';
import type { Store } from '../../../src/ports/store.js';
import { commandQueueContract } from '../../contracts/command-queue.contract.js';
import { controlStoreContract } from '../../contracts/control-store.contract.js';
import { eventStoreTrimContract } from '../../contracts/event-store-trim.contract.js';
import { eventStoreAnchorContract } from '../../contracts/event-store-anchor.contract.js';
import { eventStoreClockContract } from '../../contracts/event-store-clock.contract.js';
import { eventStoreContract } from '../../contracts/event-store.contract.js';
import { keyValueStoreContract } from '../../contracts/key-value-store.contract.js';
import { sharedDocumentsContract } from '../../contracts/shared-documents.contract.js';
import { deletePrefix, requireRedis, TEST_REDIS_URL, uniquePrefix } from '../../support/redis.js';
import { initialised } from '../../support/stores.js';
import { storeIdentityContract } from '../../contracts/store-identity.contract.js';
import { tradingLeaseContract } from '../../contracts/trading-lease.contract.js';
import { applyControl } from '../../../src/application/control-transition.js';
import { cancelPayload } from '../../support/commands.js';

const prefixes: string[] = [];
const prefixOf = new WeakMap<Store, string>();
let admin: Redis;

beforeAll(async () => {
  await requireRedis();
  admin = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  for (const prefix of prefixes) await deletePrefix(prefix);
  admin?.disconnect();
});

async function openOn(prefix: string): Promise<Store> {
  const store = await openRedisStore({ url: TEST_REDIS_URL, prefix });
  prefixOf.set(store, prefix);
  return store;
}

/** A fresh, empty store under a new prefix. */
async function open(): Promise<Store> {
  const prefix = uniquePrefix('redis');
  prefixes.push(prefix);
  return initialised(await openOn(prefix));
}

/** Another connection (standing in for the other process) to the most recently opened prefix. */
async function openSecond(): Promise<Store> {
  const prefix = prefixes[prefixes.length - 1];
  if (prefix === undefined) throw new Error('openSecond called before open');
  return openOn(prefix);
}

controlStoreContract('redis', open, openSecond);
tradingLeaseContract('redis', open, openSecond);
storeIdentityContract(
  'redis',
  async () => {
    const prefix = uniquePrefix('redis');
    prefixes.push(prefix);
    return openOn(prefix);
  },
  openSecond,
);
eventStoreContract('redis', open, openSecond, {
  async tamper(store, seq, newBody) {
    const prefix = prefixOf.get(store);
    if (prefix === undefined) throw new Error('tamper: not a store opened by this file');
    await admin.hset(redisKeys(prefix).eventEntry(seq), 'body', canonicalJson(newBody));
  },
});
/** The key layout of a store opened by this file, for writes behind the adapter's back. */
function layoutOf(store: Store): RedisKeys {
  const prefix = prefixOf.get(store);
  if (prefix === undefined) throw new Error('not a store opened by this file');
  return redisKeys(prefix);
}
eventStoreClockContract('redis', open, async (clock) => {
  const prefix = prefixes[prefixes.length - 1];
  if (prefix === undefined) throw new Error('openWithClock called before open');
  return openRedisStore({ url: TEST_REDIS_URL, prefix, clock });
});
eventStoreAnchorContract('redis', open, openSecond, {
  async deleteEntry(store, seq) {
    const keys = layoutOf(store);
    const [kind, symbol] = await admin.hmget(keys.eventEntry(seq), 'kind', 'symbol');
    if (kind === null || kind === undefined) throw new Error(`deleteEntry: no event ${seq}`);
    const tx = admin.multi().del(keys.eventEntry(seq));
    for (const index of keys.eventIndexes(kind, symbol ?? null)) tx.zrem(index, String(seq));
    await tx.exec();
  },
  async writeEntry(store, e) {
    const keys = layoutOf(store);
    const fields = {
      seq: e.seq,
      at: e.at,
      kind: e.kind,
      body: canonicalJson(e.body),
      prev_hash: e.prev_hash,
      hash: e.hash,
    };
    const tx = admin.multi().del(keys.eventEntry(e.seq)).hset(keys.eventEntry(e.seq), fields);
    if (e.symbol !== null) tx.hset(keys.eventEntry(e.seq), 'symbol', e.symbol);
    for (const index of keys.eventIndexes(e.kind, e.symbol)) tx.zadd(index, e.seq, String(e.seq));
    await tx.exec();
  },
  async setHeadHash(store, hash) {
    await admin.hset(layoutOf(store).eventHead, 'hash', hash);
  },
});
commandQueueContract('redis', open, openSecond);
keyValueStoreContract('redis', open, openSecond);
sharedDocumentsContract('redis', open, openSecond);

describe('Redis store specifics', () => {
  it('describes itself with the password masked and the prefix shown', () => {
    expect(describeRedis('redis://:s3cret@db.internal:6380/2', 'tcs:')).toBe(
      'redis://:***@db.internal:6380/2 (prefix tcs:)',
    );
    expect(describeRedis('rediss://app:p%40ss@db:6379?password=other', 'x:')).not.toMatch(/p%40ss|p@ss|other/);
    expect(describeRedis('redis://127.0.0.1:6379/15', 'tcs:')).toBe('redis://127.0.0.1:6379/15 (prefix tcs:)');
  });

  it('uses the default prefix tcs: and reports kind redis', async () => {
    const seededHere = (await admin.exists('tcs:control')) === 0;
    const store = await openRedisStore({ url: TEST_REDIS_URL });
    try {
      expect(store.kind).toBe('redis');
      expect(store.description).toMatch(/\(prefix tcs:\)$/);
    } finally {
      await store.close();
      if (seededHere) await admin.del('tcs:control');
    }
  });

  it('never reads a lost control record as running: reads fault, and it is not initialised as new', async () => {
    const store = await open();
    const prefix = prefixOf.get(store)!;
    try {
      await applyControl(
        store.control,
        { type: 'control.kill', reason: 'latched' },
        { actor: 'k', at: '2024-01-01T00:00:00.000Z' },
      );
      await admin.del(redisKeys(prefix).control); // data loss
      await expect(store.control.read()).rejects.toThrow(/no control record/);
      const again = await openOn(prefix);
      await expect(again.control.read()).rejects.toMatchObject({ kind: 'empty' });
      await expect(again.control.initialise(new Date().toISOString())).rejects.toThrow(
        /audit trail \(1 entries\) but no control record/,
      );
      await again.close();
    } finally {
      await store.close();
    }
  });

  it('fails fast with a password-free message when Redis does not answer', async () => {
    const reported: string[] = [];
    const attempt = openRedisStore({
      url: 'redis://:hunter2@127.0.0.1:1/0',
      prefix: 'x:',
      onError: (err) => reported.push(err.message),
    });
    await expect(attempt).rejects.toThrow(/cannot connect to Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1\/0/);
    const message = await attempt.catch((err: Error) => err.message);
    expect(message).not.toContain('hunter2');
    for (const line of reported) expect(line).not.toContain('hunter2');
  });

  it('ping measures a round trip; close is idempotent and ping fails afterwards', async () => {
    const store = await open();
    const latency = await store.ping();
    // A measured duration, not a speed check (speed is measured in bench/).
    expect(Number.isFinite(latency)).toBe(true);
    expect(latency).toBeGreaterThanOrEqual(0);
    await store.close();
    await store.close();
    await expect(store.ping()).rejects.toThrow();
  });

  it('keeps every key it writes under its prefix and never touches another prefix', async () => {
    const [mine, theirs] = [await open(), await open()];
    try {
      await theirs.kv.set('doc', { theirs: true });
      await applyControl(
        mine.control,
        { type: 'control.pause', reason: 'p' },
        { actor: 'k', at: '2024-01-01T00:00:00.000Z' },
      );
      await mine.events.append({
        kind: 'decision',
        at: '2024-01-01T00:00:01.000Z',
        symbol: 'BTC-USD:PERP',
        body: { x: 1 },
      });
      await mine.commands.enqueue({
        id: 'c1',
        type: 'cancel_all',
        payload: cancelPayload(),
        enqueued_at: '2024-01-01T00:00:02.000Z',
      });
      await mine.kv.set('doc', { mine: true });
      const prefix = prefixOf.get(mine) ?? '';
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        cursor = next;
        keys.push(...batch);
      } while (cursor !== '0');
      const layout = redisKeys(prefix);
      expect(keys).toEqual(
        expect.arrayContaining([
          layout.control,
          layout.eventHead,
          layout.eventEntry(1),
          layout.eventEntry(2),
          layout.eventsByKindSymbol('decision', 'BTC-USD:PERP'),
          layout.command('c1'),
          layout.kv('doc'),
        ]),
      );
      expect(await theirs.kv.get('doc')).toEqual({ theirs: true });
      expect(await theirs.events.count()).toBe(0);
      expect((await theirs.control.read()).epoch).toBe(0);
    } finally {
      await mine.close();
      await theirs.close();
    }
  });

  it('verify names an entry that is missing from one of its query indexes', async () => {
    const store = await open();
    try {
      for (let i = 1; i <= 3; i++)
        await store.events.append({
          kind: 'decision',
          at: `2024-01-01T00:00:0${i}.000Z`,
          symbol: 'BTC-USD',
          body: { i },
        });
      expect((await store.events.verify()).ok).toBe(true);
      // The entry stays, but a filtered query would silently skip it.
      await admin.zrem(layoutOf(store).eventsByKindSymbol('decision', 'BTC-USD'), '3');
      expect(await store.events.query({ limit: 10, kind: 'decision', symbol: 'BTC-USD' })).toHaveLength(2);
      const result = await store.events.verify();
      expect(result).toMatchObject({ ok: false, firstBad: { seq: 3 } });
      if (!result.ok) expect(result.firstBad.reason).toMatch(/index/);
    } finally {
      await store.close();
    }
  });

  it('refuses to append over an entry that lies beyond the head, rather than overwrite it', async () => {
    const store = await open();
    try {
      await store.events.append({ kind: 'decision', at: '2024-01-01T00:00:01.000Z', body: { n: 1 } });
      const entry2 = layoutOf(store).eventEntry(2);
      await admin.hset(entry2, { seq: 2, at: '2024-01-01T00:00:02.000Z', kind: 'decision', body: '{"kept":true}' });
      const before = await store.control.read();
      await expect(
        store.control.compareAndSet({
          expectedEpoch: 0,
          expectedStoreId: before.store_id,
          next: { ...before, state: 'paused', epoch: 1, reason: 'r', changed_at: '2024-01-01T00:00:03.000Z' },
          audit: { kind: 'control', at: '2024-01-01T00:00:03.000Z', body: {} },
        }),
      ).rejects.toThrow(/tampered/);
      await expect(store.events.append({ kind: 'decision', at: '2024-01-01T00:00:03.000Z', body: {} })).rejects.toThrow(
        /tampered/,
      );
      expect(await admin.hget(entry2, 'body')).toBe('{"kept":true}');
      // Refused before anything was written: the control record did not move either.
      expect(await store.control.read()).toMatchObject({ state: 'running', epoch: 0 });
    } finally {
      await store.close();
    }
  });

  it('orders by time after a head written without `at` (a store from before it was kept there)', async () => {
    const a = await open();
    const b = await openSecond();
    try {
      await a.events.append({ kind: 'decision', at: '2024-01-01T00:00:10.000Z', body: { n: 1 } });
      await admin.hdel(layoutOf(a).eventHead, 'at');
      const next = await b.events.append({ kind: 'decision', at: '2024-01-01T00:00:05.000Z', body: { n: 2 } });
      expect(next).toMatchObject({ seq: 2, at: '2024-01-01T00:00:10.000Z' });
      expect(await b.events.verify()).toMatchObject({ ok: true, count: 2, head: next.hash });
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('recovers when another writer moved the chain head behind its cached view', async () => {
    const [a, b] = [await open(), await openSecond()];
    try {
      await a.events.append({ kind: 'decision', at: '2024-01-01T00:00:00.000Z', body: { n: 1 } });
      // b extends the chain; a's cached head is now stale and its CAS must refuse, then retry.
      await b.events.append({ kind: 'decision', at: '2024-01-01T00:00:01.000Z', body: { n: 2 } });
      await applyControl(
        b.control,
        { type: 'control.kill', reason: 'k' },
        { actor: 'b', at: '2024-01-01T00:00:02.000Z' },
      );
      const third = await a.events.append({ kind: 'decision', at: '2024-01-01T00:00:03.000Z', body: { n: 3 } });
      expect(third.seq).toBe(4);
      expect(await a.events.verify()).toMatchObject({ ok: true, count: 4 });
    } finally {
      await a.close();
      await b.close();
    }
  });
});

eventStoreTrimContract('redis', open, openSecond, {
  async deleteEntry(store, seq) {
    const keys = layoutOf(store);
    const [kind, symbol] = await admin.hmget(keys.eventEntry(seq), 'kind', 'symbol');
    if (kind === null || kind === undefined) throw new Error(`deleteEntry: no event ${seq}`);
    const tx = admin.multi().del(keys.eventEntry(seq));
    for (const index of keys.eventIndexes(kind, symbol ?? null)) tx.zrem(index, String(seq));
    await tx.exec();
  },
});

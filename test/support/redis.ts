/**
 * Real-Redis test support. Redis tests are required, never skipped: without a Redis they fail with
 * a message saying how to start one. Each caller gets its own key prefix (and the database in
 * TEST_REDIS_URL, default 15) and removes its keys afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';

/** A fresh prefix such as `tcs-test:3f9a1c2b:`; every key a test writes must start with it. */
export function uniquePrefix(label = 'test'): string {
  return `tcs-${label}:${randomBytes(4).toString('hex')}:`;
}

/** Throws a clear error when no Redis answers at TEST_REDIS_URL. */
export async function requireRedis(): Promise<void> {
  const client = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new Error(
      `Redis tests need a Redis at ${TEST_REDIS_URL} (${(err as Error).message}). ` +
        'Start one with `redis-server --port 6379 --save "" --daemonize yes` or set TEST_REDIS_URL.',
    );
  } finally {
    client.disconnect();
  }
}

/** Deletes every key under `prefix` (SCAN, never KEYS). */
export async function deletePrefix(prefix: string): Promise<void> {
  const client = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

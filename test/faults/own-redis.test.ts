/**
 * The fault-injection helper itself: its redis-server really stops answering when paused, loses its
 * data on an empty restart and keeps it with an append-only file.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';

describe('own redis-server for fault tests', () => {
  let server: OwnRedis | undefined;
  afterEach(async () => {
    await server?.cleanup();
    server = undefined;
  });

  const client = (url: string) => new Redis(url, { maxRetriesPerRequest: 1, commandTimeout: 300 });

  it('pause stops answers, resume brings them back; an empty restart loses the data', async () => {
    server = await startOwnRedis();
    const redis = client(server.url);
    await redis.set('k', 'v');
    server.pause();
    await expect(redis.get('k')).rejects.toThrow(/timed out/i);
    server.resume();
    expect(await redis.get('k')).toBe('v');
    redis.disconnect();
    await server.restart({ empty: true });
    const again = client(server.url);
    expect(await again.get('k')).toBeNull();
    again.disconnect();
  });

  it('with an append-only file the data survives a SIGKILL and restart', async () => {
    server = await startOwnRedis({ appendOnly: true });
    const redis = client(server.url);
    await redis.set('k', 'v');
    redis.disconnect();
    await server.restart();
    const again = client(server.url);
    expect(await again.get('k')).toBe('v');
    again.disconnect();
  });
});

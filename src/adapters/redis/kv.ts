/**
 * Small shared JSON documents (heartbeat, snapshots, the paper account) as plain Redis strings under
 * `<prefix>kv:<key>`; a single SET is atomic per key. A fenced write (the trading process's account
 * and venue writes) compares the lease's fence and writes in one script.
 */
import type { Redis } from 'ioredis';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import { staleFence } from '../../ports/store-errors.js';
import type { RedisKeys } from './keys.js';
import { fencedSetScript } from './lease-scripts.js';

export class RedisKeyValueStore implements KeyValueStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async get<T = unknown>(key: string): Promise<T | null> {
    const text = await this.redis.get(this.keys.kv(key));
    return text === null ? null : (JSON.parse(text) as T);
  }

  async set(key: string, value: unknown, fence?: number): Promise<void> {
    // JSON has no `undefined`; store it as null so a later get stays well-formed.
    const text = JSON.stringify(value ?? null);
    if (fence === undefined) {
      await this.redis.set(this.keys.kv(key), text);
      return;
    }
    const reply = (await fencedSetScript.run(this.redis, [this.keys.leaseFence, this.keys.kv(key)], [fence, text])) as [
      number,
      string?,
    ];
    if (reply[0] !== 1) throw staleFence(key, fence, reply[1] ? Number(reply[1]) : undefined);
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.keys.kv(key));
  }
}

/**
 * Small shared JSON documents (heartbeat, snapshots, the paper account) as plain Redis strings under
 * `<prefix>kv:<key>`; a single SET is atomic per key, which is all the port promises.
 */
import type { Redis } from 'ioredis';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { RedisKeys } from './keys.js';

export class RedisKeyValueStore implements KeyValueStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
  ) {}

  async get<T = unknown>(key: string): Promise<T | null> {
    const text = await this.redis.get(this.keys.kv(key));
    return text === null ? null : (JSON.parse(text) as T);
  }

  async set(key: string, value: unknown): Promise<void> {
    // JSON has no `undefined`; store it as null so a later get stays well-formed.
    await this.redis.set(this.keys.kv(key), JSON.stringify(value ?? null));
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.keys.kv(key));
  }
}

/**
 * In-memory KeyValueStore test double (the port only; the code under test stays real). Values go
 * through JSON on the way in and out, like the real stores, so anything that would not survive
 * SQLite or Redis (Maps, undefined, NaN) fails here too. `failNextSets` simulates a store outage.
 */
import type { KeyValueStore } from '../../src/ports/key-value-store.js';

export interface MemoryKeyValueStore extends KeyValueStore {
  /** Raw JSON text per key, for asserting on what was stored and how big it is. */
  readonly raw: Map<string, string>;
  /** Number of successful `set` calls. */
  readonly sets: number;
  /** Makes the next `n` calls to `set` reject without storing anything. */
  failNextSets(n: number): void;
}

export function createMemoryKv(): MemoryKeyValueStore {
  const raw = new Map<string, string>();
  let sets = 0;
  let failures = 0;
  return {
    raw,
    get sets() {
      return sets;
    },
    failNextSets(n: number) {
      failures = n;
    },
    async get<T = unknown>(key: string): Promise<T | null> {
      const text = raw.get(key);
      return text === undefined ? null : (JSON.parse(text) as T);
    },
    async set(key: string, value: unknown): Promise<void> {
      if (failures > 0) {
        failures -= 1;
        throw new Error('memory kv: simulated write failure');
      }
      const text = JSON.stringify(value, (_k, v: unknown) => {
        if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`memory kv: ${String(v)} is not JSON`);
        if (v instanceof Map || v instanceof Set) throw new Error('memory kv: Map/Set is not JSON');
        return v;
      });
      raw.set(key, text);
      sets += 1;
    },
    async delete(key: string): Promise<void> {
      raw.delete(key);
    },
  };
}

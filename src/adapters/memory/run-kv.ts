/**
 * The key-value store of one simulation run (`tcs simulate`): the paper account and the documents
 * the trading process publishes, kept in this process only. A run has no second process to read them
 * and nothing to resume after a crash, and writing the whole paper account (up to 500 retained
 * orders) as JSON to disk after every fill was a fifth of a simulated cycle. Values are kept as the
 * objects written: every writer hands over a freshly built document (the venue encodes its state
 * anew on each save), so nothing is serialised at all. There is one writer, so the fence is not
 * checked.
 */
import type { KeyValueStore } from '../../ports/key-value-store.js';

export function createRunKv(): KeyValueStore {
  const values = new Map<string, unknown>();
  return {
    async get<T = unknown>(key: string): Promise<T | null> {
      return values.has(key) ? (values.get(key) as T) : null;
    },
    async set(key: string, value: unknown): Promise<void> {
      if (value === undefined) throw new TypeError(`kv value for ${key} is undefined`);
      values.set(key, value);
    },
    async delete(key: string): Promise<void> {
      values.delete(key);
    },
  };
}

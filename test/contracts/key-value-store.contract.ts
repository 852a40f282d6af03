/**
 * Contract for KeyValueStore adapters (src/ports/key-value-store.ts): JSON documents shared by the
 * two processes, so every value must round-trip exactly and be visible from the other connection.
 */
import { describe, expect, it } from 'vitest';
import { storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

export function keyValueStoreContract(name: string, open: StoreFactory, openSecond: StoreFactory): void {
  describe(`KeyValueStore contract: ${name}`, () => {
    const stores = storeHarness(open, openSecond);

    it('get returns null for a missing key', async () => {
      const store = await stores.one();
      expect(await store.kv.get('nothing-here')).toBeNull();
    });

    it('set then get round-trips JSON values', async () => {
      const store = await stores.one();
      const values: Record<string, unknown> = {
        object: { nav: 10_000.5, positions: [{ symbol: 'BTC-USD', qty: -0.25 }], ok: true, none: null },
        array: [1, 'two', { three: 3 }],
        string: 'héllo "quoted" \n line',
        number: 42.125,
        zero: 0,
        boolean: false,
        empty: {},
      };
      for (const [key, value] of Object.entries(values)) await store.kv.set(key, value);
      for (const [key, value] of Object.entries(values)) expect(await store.kv.get(key), key).toEqual(value);
    });

    it('set overwrites the previous value and keys are independent', async () => {
      const store = await stores.one();
      await store.kv.set('heartbeat', { at: 1, pid: 10 });
      await store.kv.set('other', { keep: true });
      await store.kv.set('heartbeat', { at: 2 });
      expect(await store.kv.get('heartbeat')).toEqual({ at: 2 });
      expect(await store.kv.get('other')).toEqual({ keep: true });
    });

    it('delete removes the key and deleting a missing key is harmless', async () => {
      const store = await stores.one();
      await store.kv.set('gone', { x: 1 });
      await store.kv.set('stays', { y: 2 });
      await store.kv.delete('gone');
      await store.kv.delete('never-existed');
      expect(await store.kv.get('gone')).toBeNull();
      expect(await store.kv.get('stays')).toEqual({ y: 2 });
    });

    it('writes are visible from the second connection', async () => {
      const [a, b] = await stores.two();
      await a.kv.set('portfolio', { nav: 1234.5 });
      expect(await b.kv.get('portfolio')).toEqual({ nav: 1234.5 });
      await b.kv.set('portfolio', { nav: 999 });
      expect(await a.kv.get('portfolio')).toEqual({ nav: 999 });
      await a.kv.delete('portfolio');
      expect(await b.kv.get('portfolio')).toBeNull();
    });
  });
}

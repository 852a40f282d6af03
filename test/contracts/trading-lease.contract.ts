/**
 * Contract for the trading lease and fenced writes (src/ports/trading-lease.ts): exactly one of many
 * simultaneous takers wins, only the holder renews, a lease that ran out or was released passes to
 * the next taker with a higher fence, a known-dead holder's lease can be stolen at once, and a write
 * carrying a superseded fence writes nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import { StoreFaultError } from '../../src/ports/store-errors.js';
import type { LeaseGrant, TradingLease } from '../../src/ports/trading-lease.js';
import { storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

/** Takes the lease for `holder` as soon as it is free (a bounded wait on the store's own clock). */
async function takeOnceFree(lease: TradingLease, holder: string): Promise<LeaseGrant> {
  return vi.waitFor(
    async () => {
      const taken = await lease.acquire(holder, 10_000);
      if (!taken.acquired) throw new Error(`the lease is still held by ${taken.heldBy.holder}`);
      return taken.grant;
    },
    { timeout: 5_000, interval: 20 },
  );
}

export function tradingLeaseContract(name: string, open: StoreFactory, openSecond: StoreFactory): void {
  describe(`TradingLease contract: ${name}`, () => {
    const stores = storeHarness(open, openSecond);

    it('twenty simultaneous takers on two connections: exactly one wins', async () => {
      const [a, b] = await stores.two();
      const attempts = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).lease.acquire(`p${i}`, 10_000)),
      );
      const winners = attempts.filter((x) => x.acquired);
      expect(winners).toHaveLength(1);
      const winner = (winners[0] as { grant: LeaseGrant }).grant;
      for (const lost of attempts.filter((x) => !x.acquired))
        expect(lost).toMatchObject({ heldBy: { holder: winner.holder } });
    });

    it('only the holder renews; after it runs out the next taker gets a higher fence and the old one is fenced', async () => {
      const [a, b] = await stores.two();
      const first = await a.lease.acquire('first', 150);
      if (!first.acquired) throw new Error('first should win an empty lease');
      await a.kv.set('paper:state', { v: 'first' }, first.grant.fence);
      expect(await b.lease.renew({ holder: 'intruder', fence: first.grant.fence }, 150)).toBe(false);
      expect(await a.lease.renew(first.grant, 150)).toBe(true);
      // Not renewed again, it runs out 150 ms later and the next taker wins.
      const second = await takeOnceFree(b.lease, 'second');
      expect(second.fence).toBeGreaterThan(first.grant.fence);
      expect(await a.lease.renew(first.grant, 150)).toBe(false);
      const refused = await a.kv.set('paper:state', { v: 'stale' }, first.grant.fence).then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(StoreFaultError);
      expect(refused).toMatchObject({ kind: 'fenced' });
      expect(await b.kv.get('paper:state')).toEqual({ v: 'first' });
      await b.kv.set('paper:state', { v: 'second' }, second.fence);
      expect(await a.kv.get('paper:state')).toEqual({ v: 'second' });
    });

    it('a released lease passes at once; a dead holder can be stolen from, a live one cannot', async () => {
      const [a, b] = await stores.two();
      const first = await a.lease.acquire('first', 10_000);
      if (!first.acquired) throw new Error('first should win');
      await a.lease.release(first.grant);
      const second = await b.lease.acquire('second', 10_000);
      expect(second).toMatchObject({ acquired: true });
      expect(await a.lease.acquire('third', 10_000, { steal: 'someone-else' })).toMatchObject({ acquired: false });
      const stolen = await a.lease.acquire('third', 10_000, { steal: 'second' });
      expect(stolen).toMatchObject({ acquired: true });
    });

    it('a fenced write with no lease ever taken is refused (an empty or replaced store)', async () => {
      const store = await stores.one();
      await expect(store.kv.set('paper:state', { v: 1 }, 1)).rejects.toMatchObject({ kind: 'fenced' });
      expect(await store.kv.get('paper:state')).toBeNull();
    });
  });
}

/**
 * The account the paper venue hands out, read several times a cycle: what a caller does to it
 * changes nothing another caller reads, and every change of the account between two reads shows in
 * the second, whatever made it (a resting fill on an unchanged market, a funding settlement, a
 * resting order cancelled without a fill, a cancel-all). The oracle is the same store opened afresh,
 * as a restarted process reads it.
 */
import { describe, expect, it } from 'vitest';
import type { AccountSnapshot } from '../../../src/domain/portfolio.js';
import type { Venue } from '../../../src/ports/venue.js';
import { openHarness, order, PERP, snapshot, view } from './fixtures.js';
import type { Harness } from './fixtures.js';

/** The venue's account beside the stored account read by a venue opened afresh on the same store. */
async function bothReads(h: Harness, venue: Venue, market = view(snapshot({ bid: 99, ask: 101 }))) {
  const shown = await venue.account(market);
  const fresh = await (await h.reopen()).account(market);
  return { shown: plain(shown), fresh: plain(fresh) };
}

const plain = (account: AccountSnapshot): AccountSnapshot => structuredClone(account);

describe('paper venue: the account handed out', () => {
  it('a caller writing into its account changes nothing the next caller reads', async () => {
    const h = await openHarness();
    const market = view(snapshot({ bid: 99, ask: 101 }));
    await h.venue.submit(order({ side: 'BUY', qty: 2 }), market);
    await h.venue.submit(order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 90 }), market);
    const first = await h.venue.account(market);
    const before = plain(first);
    const attempts: (() => void)[] = [
      () => ((first as { nav: number }).nav = 0),
      () => (first.positions as unknown[]).push({ symbol: 'X' }),
      () => ((first.positions[0] as { qty: number }).qty = 0),
      () => ((first.openOrders[0] as { status: string }).status = 'cancelled'),
      () => ((first.fundingBySymbol as Record<string, number>)[PERP.symbol] = 5),
    ];
    for (const attempt of attempts) {
      try {
        attempt();
      } catch {
        // Refused is as good as ignored: the point is what the next read sees.
      }
    }
    expect(plain(await h.venue.account(market))).toEqual(before);
    expect(plain(await h.venue.account())).toEqual(before);
  });

  it('every change between two reads shows in the second', async () => {
    const h = await openHarness();
    const { venue, clock } = h;
    const market = view(snapshot({ bid: 99, ask: 101 }));
    await venue.submit(order({ side: 'BUY', qty: 2 }), market);
    await venue.submit(order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 99 }), market);
    await venue.submit(order({ side: 'SELL', qty: 5, type: 'limit', limitPrice: 100, reduceOnly: true }), market);
    let reads = await bothReads(h, venue, market);
    expect(reads.shown).toEqual(reads.fresh);
    expect(reads.shown.openOrders).toHaveLength(2);

    // The same market again: the resting BUY at 99 does not cross an ask of 101, nothing changes.
    await venue.onMarket(market);
    expect(plain(await venue.account(market))).toEqual(reads.shown);

    // A market that crosses the resting BUY, read after with the marks the read already took.
    clock.set(clock.now() + 60_000);
    const crossing = view(snapshot({ bid: 98, ask: 99 }));
    await venue.account(crossing);
    expect((await venue.onMarket(crossing)).fills).toHaveLength(1);
    reads = await bothReads(h, venue, crossing);
    expect(reads.shown).toEqual(reads.fresh);
    expect(reads.shown.positions[0]).toMatchObject({ qty: 3 });

    // Flat by a market SELL, the resting reduce-only SELL crosses with nothing left: cancelled, no fill.
    await venue.submit(order({ side: 'SELL', qty: 3 }), crossing);
    await venue.account(crossing);
    clock.set(clock.now() + 60_000);
    const up = view(snapshot({ bid: 101, ask: 102 }));
    await venue.account(up);
    expect((await venue.onMarket(up)).fills).toEqual([]);
    reads = await bothReads(h, venue, up);
    expect(reads.shown).toEqual(reads.fresh);
    expect(reads.shown.openOrders).toEqual([]);

    // A resting order, then a cancel-all.
    await venue.submit(order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 50 }), up);
    expect((await venue.account(up)).openOrders).toHaveLength(1);
    await venue.cancelAll();
    reads = await bothReads(h, venue, up);
    expect(reads.shown).toEqual(reads.fresh);
    expect(reads.shown.openOrders).toEqual([]);
  });

  it('a funding settlement on an unchanged market shows in the next read', async () => {
    const h = await openHarness();
    const { venue, clock } = h;
    const T = clock.now() + 3_600_000;
    const announced = (ts: number) =>
      view(snapshot({ bid: 99, ask: 101, ts, fundingRate: 0.001, nextFundingTs: ts < T ? T : T + 8 * 3_600_000 }));
    await venue.submit(order({ side: 'BUY', qty: 2 }), announced(T - 60_000));
    await venue.onMarket(announced(T - 60_000));
    const before = plain(await venue.account(announced(T)));
    clock.set(T);
    await venue.onMarket(announced(T));
    const reads = await bothReads(h, venue, announced(T));
    expect(reads.shown).toEqual(reads.fresh);
    expect(reads.shown.fundingPnl).toBeLessThan(before.fundingPnl);
    expect(reads.shown.cash).toBeLessThan(before.cash);
  });
});

/**
 * Limit orders and cancel-all: a non-marketable limit rests, fills at its own price with the
 * maker fee once the market crosses it (BUY when ask ≤ limit, SELL when bid ≥ limit); a
 * marketable limit takes what the book offers at or better than the limit and rests the rest;
 * cancelAll cancels open orders, optionally per symbol, and returns them.
 */
import { describe, expect, it } from 'vitest';
import { openHarness, order, PERP, SPOT, snapshot, view } from './fixtures.js';

describe('paper venue: limit orders', () => {
  it('rests a BUY below the ask, then fills at the limit with the maker fee when the ask crosses', async () => {
    const { venue, clock } = await openHarness();
    const submitted = await venue.submit(
      order({ side: 'BUY', qty: 3, type: 'limit', limitPrice: 95 }),
      view(snapshot({ bid: 99, ask: 101 })),
    );
    expect(submitted.order).toMatchObject({ status: 'open', filledQty: 0, avgFillPrice: null });
    expect(submitted.fills).toEqual([]);
    expect(await venue.openOrders()).toHaveLength(1);

    // Not crossed yet: ask 95.01 > 95.
    expect((await venue.onMarket(view(snapshot({ bid: 94.99, ask: 95.01 })))).fills).toEqual([]);

    clock.set(clock.now() + 60_000);
    const { fills } = await venue.onMarket(view(snapshot({ bid: 93, ask: 94 })));
    expect(fills).toEqual([
      {
        clientOrderId: submitted.order.clientOrderId,
        symbol: PERP.symbol,
        side: 'BUY',
        qty: 3,
        price: 95,
        fee: 3 * 95 * 0.0002,
        liquidity: 'maker',
        ts: clock.now(),
      },
    ]);
    expect(await venue.openOrders()).toEqual([]);
    const account = await venue.account();
    expect(account.positions[0]).toMatchObject({ qty: 3, entryPrice: 95 });
    expect(account.feesPaid).toBeCloseTo(3 * 95 * 0.0002, 12);
  });

  it('rests a SELL above the bid and fills when the bid reaches it', async () => {
    const { venue } = await openHarness();
    await venue.submit(
      order({ side: 'SELL', qty: 1, type: 'limit', limitPrice: 105 }),
      view(snapshot({ bid: 99, ask: 101 })),
    );
    expect((await venue.onMarket(view(snapshot({ bid: 104.99, ask: 105.5 })))).fills).toEqual([]);
    const { fills } = await venue.onMarket(view(snapshot({ bid: 105, ask: 105.5 })));
    expect(fills.map((f) => [f.side, f.qty, f.price, f.liquidity])).toEqual([['SELL', 1, 105, 'maker']]);
  });

  it('fills a marketable limit as taker within its limit and rests the remainder', async () => {
    const { venue } = await openHarness();
    const asks = [
      { price: 101, qty: 1 },
      { price: 102, qty: 1 },
      { price: 103, qty: 5 },
    ];
    const result = await venue.submit(
      order({ side: 'BUY', qty: 3, type: 'limit', limitPrice: 102 }),
      view(snapshot({ bid: 99, ask: 101, asks })),
    );
    expect(result.fills).toHaveLength(1);
    expect(result.fills[0]).toMatchObject({ qty: 2, price: 101.5, liquidity: 'taker', fee: 203 * 0.0005 });
    expect(result.order).toMatchObject({ status: 'open', qty: 3, filledQty: 2, avgFillPrice: 101.5 });

    const { fills: later } = await venue.onMarket(view(snapshot({ bid: 100, ask: 101.5 })));
    expect(later).toHaveLength(1);
    expect(later[0]).toMatchObject({ qty: 1, price: 102, liquidity: 'maker' });
    const [done] = (await venue.account()).positions;
    expect(done).toMatchObject({ qty: 3 });
    // An average is kept to the 1e-8 quote precision: 305 / 3 = 101.666… → 101.66666667.
    expect(done?.entryPrice).toBe(101.66666667);
  });

  it('fills a fully marketable limit at once with status filled', async () => {
    const { venue } = await openHarness();
    const result = await venue.submit(
      order({ side: 'SELL', qty: 2, type: 'limit', limitPrice: 98 }),
      view(snapshot({ bid: 99, ask: 101 })),
    );
    expect(result.order.status).toBe('filled');
    expect(result.fills[0]).toMatchObject({ price: 99, liquidity: 'taker' });
    expect(await venue.openOrders()).toEqual([]);
  });

  it('refuses a spot SELL of holdings a resting sell already offers, and fills the resting one', async () => {
    const { venue } = await openHarness();
    const market = view(snapshot({ symbol: SPOT.symbol, bid: 50, ask: 50.02 }));
    await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 1 }), market);
    const resting = await venue.submit(
      order({ symbol: SPOT.symbol, side: 'SELL', qty: 1, type: 'limit', limitPrice: 60 }),
      market,
    );
    expect(resting.order.status).toBe('open');
    const second = await venue.submit(order({ symbol: SPOT.symbol, side: 'SELL', qty: 0.5 }), market);
    expect(second.order).toMatchObject({
      status: 'rejected',
      rejectReason: expect.stringMatching(
        /^INSUFFICIENT_HOLDINGS: .*exceeds holdings of 1 \(1 already on resting sells\)/,
      ),
    });
    const { fills } = await venue.onMarket(view(snapshot({ symbol: SPOT.symbol, bid: 61, ask: 61.02 })));
    expect(fills).toMatchObject([{ clientOrderId: resting.order.clientOrderId, qty: 1, price: 60 }]);
    expect((await venue.account()).positions).toEqual([]);
  });
});

describe('paper venue: cancelAll', () => {
  async function withRestingOrders() {
    const harness = await openHarness();
    const market = view(snapshot({ bid: 99, ask: 101 }), snapshot({ symbol: SPOT.symbol, bid: 49, ask: 51 }));
    await harness.venue.submit(order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 90 }), market);
    await harness.venue.submit(order({ side: 'SELL', qty: 1, type: 'limit', limitPrice: 110 }), market);
    await harness.venue.submit(
      order({ symbol: SPOT.symbol, side: 'BUY', qty: 1, type: 'limit', limitPrice: 40 }),
      market,
    );
    return harness;
  }

  it('cancels every open order and returns them', async () => {
    const { venue, clock } = await withRestingOrders();
    clock.set(clock.now() + 5_000);
    const cancelled = await venue.cancelAll();
    expect(cancelled).toHaveLength(3);
    for (const o of cancelled) expect(o).toMatchObject({ status: 'cancelled', updatedAt: clock.now() });
    expect(await venue.openOrders()).toEqual([]);
    // Cancelled orders never fill afterwards.
    expect((await venue.onMarket(view(snapshot({ bid: 80, ask: 85 })))).fills).toEqual([]);
  });

  it('cancels only the listed symbols', async () => {
    const { venue } = await withRestingOrders();
    const cancelled = await venue.cancelAll([SPOT.symbol]);
    expect(cancelled.map((o) => o.symbol)).toEqual([SPOT.symbol]);
    expect((await venue.openOrders()).map((o) => o.symbol)).toEqual([PERP.symbol, PERP.symbol]);
    expect(await venue.cancelAll([])).toEqual([]);
  });

  it('returns an empty list when nothing is open', async () => {
    const { venue } = await openHarness();
    expect(await venue.cancelAll()).toEqual([]);
  });
});

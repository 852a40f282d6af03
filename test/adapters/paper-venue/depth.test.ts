/**
 * Resting orders fill against the depth the market shows at or through their price, not in full:
 * a large order fills over several markets, stacked orders share one market's depth in price-time
 * priority (best limit first, then oldest), levels beyond the limit are never taken, and an empty
 * book fills nothing.
 */
import { describe, expect, it } from 'vitest';
import { openHarness, order, snapshot, view } from './fixtures.js';

const QUIET = view(snapshot({ bid: 99.5, ask: 100.5 }));

describe('paper venue: resting fills limited to depth', () => {
  it('fills a large resting buy over several markets, as maker at its limit', async () => {
    const { venue } = await openHarness();
    const big = order({ side: 'BUY', qty: 30, type: 'limit', limitPrice: 99 });
    await venue.submit(big, QUIET);
    const offer = view(snapshot({ bid: 98, ask: 98.5, asks: [{ price: 98.5, qty: 12 }] }));
    const filled: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const { fills } = await venue.onMarket(offer);
      expect(fills.every((f) => f.price === 99 && f.liquidity === 'maker')).toBe(true);
      filled.push(fills.reduce((sum, f) => sum + f.qty, 0));
    }
    expect(filled).toEqual([12, 12, 6]);
    expect(await venue.openOrders()).toEqual([]);
    expect((await venue.account()).positions[0]).toMatchObject({ qty: 30, entryPrice: 99 });
  });

  it('gives the best limit the depth first, then the oldest', async () => {
    const { venue } = await openHarness();
    const older = order({ side: 'BUY', qty: 4, type: 'limit', limitPrice: 98 });
    const better = order({ side: 'BUY', qty: 4, type: 'limit', limitPrice: 99 });
    const sameButLater = order({ side: 'BUY', qty: 4, type: 'limit', limitPrice: 98 });
    for (const o of [older, better, sameButLater]) await venue.submit(o, QUIET);
    const { fills } = await venue.onMarket(view(snapshot({ bid: 97, ask: 97.5, asks: [{ price: 97.5, qty: 6 }] })));
    expect(fills.map((f) => [f.clientOrderId, f.qty])).toEqual([
      [better.clientOrderId, 4],
      [older.clientOrderId, 2],
    ]);
  });

  it('never takes levels beyond the limit, and fills nothing from an empty book', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 10, type: 'limit', limitPrice: 99 }), QUIET);
    const book = [
      { price: 98.5, qty: 2 },
      { price: 99.5, qty: 100 },
    ];
    expect((await venue.onMarket(view(snapshot({ bid: 98, ask: 98.5, asks: book })))).fills).toMatchObject([
      { qty: 2 },
    ]);
    expect((await venue.onMarket(view(snapshot({ bid: 98, ask: 98.5, asks: [] })))).fills).toEqual([]);
    expect((await venue.openOrders())[0]?.filledQty).toBe(2);
  });

  it('fills resting sells against the bids at or above their limit', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 10 }), QUIET);
    await venue.submit(order({ side: 'SELL', qty: 8, type: 'limit', limitPrice: 101 }), QUIET);
    const bids = [
      { price: 101.5, qty: 3 },
      { price: 101, qty: 2 },
      { price: 100.5, qty: 50 },
    ];
    const { fills } = await venue.onMarket(view(snapshot({ bid: 101.5, ask: 102, bids })));
    expect(fills).toMatchObject([{ side: 'SELL', qty: 5, price: 101, liquidity: 'maker' }]);
  });
});

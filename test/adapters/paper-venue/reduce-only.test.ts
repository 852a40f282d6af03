/**
 * Reduce-only enforcement: an order larger than the position is capped to it (never flips);
 * reduce-only orders with nothing to reduce (flat, or the side that would grow the position) are
 * rejected; a resting reduce-only order is re-capped when it crosses and cancelled if the
 * position is gone by then. Reduce-only may close positions below the minimum notional.
 */
import { describe, expect, it } from 'vitest';
import { openHarness, order, SPOT, snapshot, view } from './fixtures.js';

const market = view(snapshot({ bid: 99, ask: 101 }), snapshot({ symbol: SPOT.symbol, bid: 49.99, ask: 50.01 }));

describe('paper venue: reduce-only', () => {
  it('caps a reduce-only SELL to the long position, leaving it flat rather than short', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 2 }), market);
    const result = await venue.submit(order({ side: 'SELL', qty: 5, reduceOnly: true }), market);
    expect(result.order).toMatchObject({ status: 'filled', qty: 2, filledQty: 2, reduceOnly: true });
    expect((await venue.account()).positions).toEqual([]);
  });

  it('caps a reduce-only BUY to the short position', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'SELL', qty: 1.5 }), market);
    const result = await venue.submit(order({ side: 'BUY', qty: 3, reduceOnly: true }), market);
    expect(result.fills[0]?.qty).toBe(1.5);
    expect((await venue.account()).positions).toEqual([]);
  });

  it('passes a reduce-only order smaller than the position unchanged', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 2 }), market);
    await venue.submit(order({ side: 'SELL', qty: 0.5, reduceOnly: true }), market);
    expect((await venue.account()).positions[0]?.qty).toBe(1.5);
  });

  it('rejects a reduce-only order when flat', async () => {
    const { venue } = await openHarness();
    const result = await venue.submit(order({ side: 'SELL', qty: 1, reduceOnly: true }), market);
    expect(result.order).toMatchObject({ status: 'rejected', rejectReason: expect.stringMatching(/position is flat/) });
  });

  it('rejects a reduce-only order on the side that would increase the position', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 1 }), market);
    const result = await venue.submit(order({ side: 'BUY', qty: 1, reduceOnly: true }), market);
    expect(result.order).toMatchObject({ status: 'rejected', rejectReason: expect.stringMatching(/would increase/) });
    expect((await venue.account()).positions[0]?.qty).toBe(1);
  });

  it('closes a dust position below the minimum notional', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 1 }), market);
    await venue.submit(order({ side: 'SELL', qty: 0.98, reduceOnly: true }), market);
    const result = await venue.submit(order({ side: 'SELL', qty: 0.02, reduceOnly: true }), market);
    expect(result.order.status).toBe('filled');
    expect((await venue.account()).positions).toEqual([]);
  });

  it('sells spot holdings reduce-only and rejects a reduce-only spot BUY', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 1 }), market);
    const sell = await venue.submit(order({ symbol: SPOT.symbol, side: 'SELL', qty: 3, reduceOnly: true }), market);
    expect(sell.order).toMatchObject({ status: 'filled', qty: 1 });
    await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 1 }), market);
    const buy = await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 1, reduceOnly: true }), market);
    expect(buy.order.status).toBe('rejected');
  });

  it('re-caps a resting reduce-only order when it crosses, and cancels it once the position is gone', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 2 }), market);
    const first = await venue.submit(
      order({ side: 'SELL', qty: 2, type: 'limit', limitPrice: 110, reduceOnly: true }),
      market,
    );
    const second = await venue.submit(
      order({ side: 'SELL', qty: 2, type: 'limit', limitPrice: 112, reduceOnly: true }),
      market,
    );
    // Half the position is sold elsewhere before the limit crosses.
    await venue.submit(order({ side: 'SELL', qty: 1 }), market);
    const { fills } = await venue.onMarket(view(snapshot({ bid: 115, ask: 116 })));
    expect(fills.map((f) => [f.clientOrderId, f.qty, f.price])).toEqual([[first.order.clientOrderId, 1, 110]]);
    expect((await venue.account()).positions).toEqual([]);
    const replay = await venue.submit({ ...second.order }, market);
    expect(replay.duplicate).toBe(true);
    expect(replay.order).toMatchObject({
      status: 'cancelled',
      rejectReason: expect.stringMatching(/nothing left to reduce/),
    });
  });
});

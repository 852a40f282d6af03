/**
 * Time in force of resting orders: GTC rests until filled or cancelled; GTT is cancelled by the
 * venue once its goodTill has come (keeping what filled), also after a restart; post-only rests or
 * is refused when it would take (POST_ONLY_WOULD_CROSS); unusable combinations are refused with
 * INVALID_TIME_IN_FORCE and change nothing.
 */
import { describe, expect, it } from 'vitest';
import { openHarness, order, snapshot, view } from './fixtures.js';

const QUIET = view(snapshot({ bid: 99, ask: 101 }));
const MINUTE = 60_000;

describe('paper venue: GTT', () => {
  it('rests until goodTill, then is cancelled with EXPIRED and never fills', async () => {
    const { venue, clock } = await openHarness();
    const start = clock.now();
    const gtt = order({
      side: 'BUY',
      qty: 1,
      type: 'limit',
      limitPrice: 95,
      timeInForce: 'GTT',
      goodTill: start + MINUTE,
    });
    expect((await venue.submit(gtt, QUIET)).order).toMatchObject({ status: 'open', timeInForce: 'GTT' });
    clock.set(start + MINUTE - 1);
    expect(await venue.onMarket(QUIET)).toEqual({ fills: [], liquidations: [], cancelled: [] });
    clock.set(start + MINUTE);
    // The market now crosses the order, but it has expired first.
    const update = await venue.onMarket(view(snapshot({ bid: 93, ask: 94 })));
    expect(update.fills).toEqual([]);
    expect(update.cancelled).toMatchObject([
      { clientOrderId: gtt.clientOrderId, status: 'cancelled', rejectReason: expect.stringMatching(/^EXPIRED: /) },
    ]);
    expect(await venue.openOrders()).toEqual([]);
    expect((await venue.account()).positions).toEqual([]);
  });

  it('keeps what filled before expiry and cancels the rest', async () => {
    const { venue, clock } = await openHarness();
    const start = clock.now();
    const gtt = order({
      side: 'BUY',
      qty: 5,
      type: 'limit',
      limitPrice: 95,
      timeInForce: 'GTT',
      goodTill: start + MINUTE,
    });
    await venue.submit(gtt, QUIET);
    await venue.onMarket(view(snapshot({ bid: 93, ask: 94, asks: [{ price: 94, qty: 2 }] })));
    clock.set(start + 2 * MINUTE);
    const { cancelled } = await venue.onMarket(QUIET);
    expect(cancelled).toMatchObject([{ clientOrderId: gtt.clientOrderId, filledQty: 2, qty: 5 }]);
    expect((await venue.account()).positions[0]?.qty).toBe(2);
  });

  it('survives a restart and expires there', async () => {
    const { venue, clock, reopen } = await openHarness();
    const start = clock.now();
    const gtt = order({
      side: 'SELL',
      qty: 1,
      type: 'limit',
      limitPrice: 105,
      timeInForce: 'GTT',
      goodTill: start + MINUTE,
    });
    await venue.submit(gtt, QUIET);
    const restarted = await reopen();
    expect(await restarted.openOrders()).toMatchObject([{ timeInForce: 'GTT', goodTill: start + MINUTE }]);
    clock.set(start + MINUTE);
    expect((await restarted.onMarket(QUIET)).cancelled).toHaveLength(1);
  });
});

describe('paper venue: post-only', () => {
  it('refuses a post-only limit that would take, with a code, and fills nothing', async () => {
    const { venue } = await openHarness();
    const result = await venue.submit(
      order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 101, postOnly: true }),
      QUIET,
    );
    expect(result.order).toMatchObject({ status: 'rejected', filledQty: 0 });
    expect(result.order.rejectReason).toBe('POST_ONLY_WOULD_CROSS: post-only BUY at 101 would take the ask 101');
    expect(result.fills).toEqual([]);
    const sell = await venue.submit(
      order({ side: 'SELL', qty: 1, type: 'limit', limitPrice: 98, postOnly: true }),
      QUIET,
    );
    expect(sell.order.rejectReason).toMatch(/^POST_ONLY_WOULD_CROSS: .*bid 99$/);
    expect((await venue.account()).cash).toBe(100_000);
  });

  it('rests a post-only limit that does not cross and fills it later as maker', async () => {
    const { venue } = await openHarness();
    const resting = await venue.submit(
      order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 100, postOnly: true }),
      QUIET,
    );
    expect(resting.order.status).toBe('open');
    const { fills } = await venue.onMarket(view(snapshot({ bid: 99, ask: 100 })));
    expect(fills).toMatchObject([{ qty: 1, price: 100, liquidity: 'maker' }]);
  });
});

describe('paper venue: time in force checks', () => {
  it.each([
    ['GTT without goodTill', { timeInForce: 'GTT' as const }, /GTT needs goodTill/],
    ['GTT in the past', { timeInForce: 'GTT' as const, goodTill: 1 }, /has passed/],
    ['goodTill on a GTC order', { goodTill: 2_000_000_000_000 }, /goodTill is only for GTT/],
    ['an unknown time in force', { timeInForce: 'IOC' as never }, /must be GTC or GTT, got IOC/],
    [
      'GTT on a market order',
      { type: 'market' as const, limitPrice: null, timeInForce: 'GTT' as const, goodTill: 2e12 },
      /GTT needs a limit/,
    ],
    [
      'post-only on a market order',
      { type: 'market' as const, limitPrice: null, postOnly: true },
      /post-only needs a limit/,
    ],
  ])('refuses %s', async (_name, fields, message) => {
    const { venue } = await openHarness();
    const result = await venue.submit(order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 95, ...fields }), QUIET);
    expect(result.order).toMatchObject({
      status: 'rejected',
      rejectReason: expect.stringMatching(/^INVALID_TIME_IN_FORCE: /),
    });
    expect(result.order.rejectReason).toMatch(message);
    expect(await venue.openOrders()).toEqual([]);
  });
});

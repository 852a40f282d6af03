/**
 * Market orders on the paper venue: taker fills priced at mid + half spread + book-walk impact
 * (and the mirror for sells), taker fees, the overflow penalty beyond visible depth, and every
 * reject path answering with a reason instead of throwing.
 */
import { describe, expect, it } from 'vitest';
import { INSTRUMENTS, openHarness, order, PERP, SPOT, snapshot, view } from './fixtures.js';

describe('paper venue: market orders', () => {
  it('fills a small BUY at the ask: mid + half the spread, with the taker fee', async () => {
    const { venue } = await openHarness();
    const market = view(snapshot({ bid: 99, ask: 101 }));
    const result = await venue.submit(order({ side: 'BUY', qty: 2 }), market);
    expect(result.duplicate).toBe(false);
    expect(result.order).toMatchObject({ status: 'filled', filledQty: 2, avgFillPrice: 101 });
    expect(result.fills).toHaveLength(1);
    const [fill] = result.fills;
    const mid = 100;
    const halfSpread = 1;
    expect(fill?.price).toBe(mid + halfSpread);
    expect(fill?.liquidity).toBe('taker');
    expect(fill?.fee).toBeCloseTo(2 * 101 * 0.0005, 12);
  });

  it('walks the book: a larger order pays the volume-weighted price of the levels it consumes', async () => {
    const { venue } = await openHarness();
    const asks = [
      { price: 101, qty: 1 },
      { price: 102, qty: 2 },
      { price: 104, qty: 5 },
    ];
    const market = view(snapshot({ bid: 99, ask: 101, asks }));
    const result = await venue.submit(order({ side: 'BUY', qty: 4 }), market);
    // 1 @ 101 + 2 @ 102 + 1 @ 104 = 409 for 4 → 102.25 = mid 100 + half spread 1 + impact 1.25.
    expect(result.fills[0]?.price).toBeCloseTo(102.25, 12);
    expect(result.fills[0]?.fee).toBeCloseTo(409 * 0.0005, 12);
  });

  it('walks the bids for a SELL: mid − half spread − impact', async () => {
    const { venue } = await openHarness();
    const bids = [
      { price: 99, qty: 1 },
      { price: 98, qty: 3 },
    ];
    const result = await venue.submit(order({ side: 'SELL', qty: 2 }), view(snapshot({ bid: 99, ask: 101, bids })));
    expect(result.fills[0]?.price).toBeCloseTo(98.5, 12);
    const account = await venue.account();
    expect(account.positions[0]).toMatchObject({ symbol: PERP.symbol, qty: -2, entryPrice: 98.5 });
  });

  it('fills beyond visible depth at the last level plus the documented overflow penalty', async () => {
    const { venue } = await openHarness({ impact: { overflowPenalty: 0.01 } });
    const asks = [
      { price: 101, qty: 1 },
      { price: 102, qty: 1 },
    ];
    const result = await venue.submit(order({ side: 'BUY', qty: 4 }), view(snapshot({ bid: 99, ask: 101, asks })));
    // Overflow 2 over visible 2: penalty = 0.01 × (1 + 2/2) = 2 % → 102 × 1.02 = 104.04.
    const expected = (101 + 102 + 2 * 104.04) / 4;
    expect(result.order.status).toBe('filled');
    expect(result.fills[0]?.price).toBeCloseTo(expected, 10);
  });

  it('sells into an overflowing book below the last bid, never below one tick', async () => {
    const { venue } = await openHarness({ impact: { overflowPenalty: 0.01 } });
    const bids = [{ price: 99, qty: 1 }];
    const result = await venue.submit(order({ side: 'SELL', qty: 2 }), view(snapshot({ bid: 99, ask: 101, bids })));
    // Overflow 1 over visible 1: penalty 2 % → 99 × 0.98 = 97.02.
    expect(result.fills[0]?.price).toBeCloseTo((99 + 97.02) / 2, 10);
  });

  it('spot BUY spends cash and SELL returns it; the sell needs holdings', async () => {
    const { venue } = await openHarness();
    const market = view(snapshot({ symbol: SPOT.symbol, bid: 49.99, ask: 50.01 }));
    await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 10 }), market);
    let account = await venue.account();
    expect(account.cash).toBeCloseTo(100_000 - 500.1 - 500.1 * 0.0005, 9);
    expect(account.positions[0]).toMatchObject({ kind: 'spot', qty: 10, entryPrice: 50.01 });
    const sell = await venue.submit(order({ symbol: SPOT.symbol, side: 'SELL', qty: 4 }), market);
    expect(sell.order.status).toBe('filled');
    account = await venue.account();
    expect(account.positions[0]?.qty).toBe(6);
    expect(account.realizedPnl).toBeCloseTo(4 * (49.99 - 50.01), 9);
  });

  it('accepts quantities with float residue and snaps them onto the lot grid', async () => {
    const { venue } = await openHarness();
    const market = view(snapshot({ symbol: SPOT.symbol, bid: 49.99, ask: 50.01 }));
    await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 0.3 }), market);
    const sell = await venue.submit(order({ symbol: SPOT.symbol, side: 'SELL', qty: 0.1 + 0.2 }), market);
    expect(sell.order).toMatchObject({ status: 'filled', qty: 0.3 });
    expect((await venue.account()).positions).toEqual([]);
  });

  describe('rejections carry a reason and never throw', () => {
    const market = view(snapshot({ bid: 99, ask: 101 }), snapshot({ symbol: SPOT.symbol, bid: 49.99, ask: 50.01 }));
    const cases: Array<[string, Parameters<typeof order>[0], RegExp]> = [
      ['qty not a lot multiple', { side: 'BUY', qty: 0.015 }, /not a multiple of the lot size 0\.01/],
      ['zero qty', { side: 'BUY', qty: 0 }, /qty must be a positive number/],
      ['negative qty', { side: 'SELL', qty: -1 }, /qty must be a positive number/],
      ['NaN qty', { side: 'BUY', qty: Number.NaN }, /qty must be a positive number/],
      ['unknown symbol', { side: 'BUY', qty: 1, symbol: 'NOPEUSDT' }, /unknown symbol NOPEUSDT/],
      [
        'limit without a price',
        { side: 'BUY', qty: 1, type: 'limit', limitPrice: null },
        /needs a positive limitPrice/,
      ],
      ['limit off the tick grid', { side: 'BUY', qty: 1, type: 'limit', limitPrice: 98.005 }, /tick size/],
      ['spot short', { side: 'SELL', qty: 1, symbol: SPOT.symbol }, /spot cannot go short/],
      ['below minimum notional', { side: 'BUY', qty: 0.01 }, /below the minimum 5/],
      ['spot buy without the cash', { side: 'BUY', qty: 2_500, symbol: SPOT.symbol }, /insufficient cash/],
    ];
    for (const [name, fields, reason] of cases) {
      it(name, async () => {
        const { venue } = await openHarness();
        const result = await venue.submit(order(fields), market);
        expect(result.order.status).toBe('rejected');
        expect(result.order.rejectReason).toMatch(reason);
        expect(result.fills).toEqual([]);
        const account = await venue.account();
        expect(account.cash).toBe(100_000);
        expect(account.positions).toEqual([]);
      });
    }

    it('no market for a whitelisted symbol', async () => {
      const { venue } = await openHarness();
      const result = await venue.submit(
        order({ side: 'BUY', qty: 1 }),
        view(snapshot({ symbol: SPOT.symbol, bid: 1, ask: 2 })),
      );
      expect(result.order).toMatchObject({ status: 'rejected', rejectReason: `no market for ${PERP.symbol}` });
    });

    it('missing clientOrderId is rejected and not remembered', async () => {
      const { venue } = await openHarness();
      const result = await venue.submit(order({ side: 'BUY', qty: 1, clientOrderId: '' }), market);
      expect(result.order).toMatchObject({ status: 'rejected', rejectReason: 'clientOrderId is required' });
    });
  });

  it('keeps its instrument list to the ones it was opened with', () => {
    expect(INSTRUMENTS.map((i) => i.symbol)).toEqual([PERP.symbol, SPOT.symbol]);
  });
});

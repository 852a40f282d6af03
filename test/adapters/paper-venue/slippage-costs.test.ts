/**
 * SLIPPAGE_BPS, itemised costs and MARK_PRICE on the paper venue (issue 34, item 4):
 *  * a taker fill pays `slippageBps` of its price beyond the book: a BUY higher, a SELL lower, on the
 *    tick grid against the taker; a marketable limit never beyond its limit; 0 (the default) changes
 *    nothing;
 *  * each taker fill says what it cost beyond the mid of the book it met: `spread` (the touch and the
 *    walk, before slippage) and `slippage`; a resting (maker) fill carries no costs;
 *  * the margin check counts the slippage of the fill it judges;
 *  * markPrice `close` marks positions at the snapshot's last price instead of its mid.
 */
import { describe, expect, it } from 'vitest';
import type { MarketSnapshot } from '../../../src/domain/market.js';
import { openHarness, order, PERP, snapshot, view } from './fixtures.js';

/** A snapshot whose last trade is not the mid (the fixture's last is the mid). */
function withLast(s: MarketSnapshot, last: number): MarketSnapshot {
  return { ...s, last };
}

describe('paper venue: slippage and itemised costs', () => {
  it('by default fills at the touch, with a spread cost of qty × (fill − mid) and no slippage', async () => {
    const { venue } = await openHarness();
    const { fills } = await venue.submit(order({ side: 'BUY', qty: 2 }), view(snapshot({ bid: 99, ask: 101 })));
    expect(fills[0]).toMatchObject({ price: 101, costs: { spread: 2, slippage: 0 } });
  });

  it('a BUY pays slippageBps above the book, a SELL below it, rounded a tick against the taker; the fee is on that price', async () => {
    const { venue } = await openHarness({ slippageBps: 10 });
    const market = view(snapshot({ bid: 99, ask: 101 }));
    const buy = await venue.submit(order({ side: 'BUY', qty: 2 }), market);
    // 101 × 1.001 = 101.101 → up to the tick 101.11; 0.11 of slippage a unit on top of the 1 of spread.
    expect(buy.fills[0]).toMatchObject({ price: 101.11, costs: { spread: 2, slippage: 0.22 } });
    expect(buy.fills[0]?.fee).toBeCloseTo(2 * 101.11 * 0.0005, 10);
    const sell = await venue.submit(order({ side: 'SELL', qty: 4 }), market);
    // 99 × 0.999 = 98.901 → down to 98.9.
    expect(sell.fills[0]).toMatchObject({ price: 98.9, costs: { spread: 4, slippage: 0.4 } });
  });

  it('walking the book counts as spread cost; slippage comes on top of the walked price', async () => {
    const { venue } = await openHarness({ slippageBps: 100 });
    const asks = [
      { price: 101, qty: 1 },
      { price: 103, qty: 1 },
    ];
    const { fills } = await venue.submit(order({ side: 'BUY', qty: 2 }), view(snapshot({ bid: 99, ask: 101, asks })));
    // Walked 102 (2 from the mid of 100 a unit); 102 × 1.01 = 103.02.
    expect(fills[0]).toMatchObject({ price: 103.02, costs: { spread: 4, slippage: 2.04 } });
  });

  it('a marketable limit slips no further than its limit', async () => {
    const { venue } = await openHarness({ slippageBps: 10 });
    const { fills } = await venue.submit(
      order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 101.05 }),
      view(snapshot({ bid: 99, ask: 101 })),
    );
    expect(fills[0]).toMatchObject({ price: 101.05, liquidity: 'taker', costs: { spread: 1, slippage: 0.05 } });
  });

  it('a resting limit fills at its limit with no costs itemised and no slippage', async () => {
    const { venue, clock } = await openHarness({ slippageBps: 10 });
    await venue.submit(
      order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 95 }),
      view(snapshot({ bid: 99, ask: 101 })),
    );
    clock.set(clock.now() + 60_000);
    const { fills } = await venue.onMarket(view(snapshot({ bid: 93, ask: 94 })));
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ price: 95, liquidity: 'maker' });
    expect(fills[0]).not.toHaveProperty('costs');
  });

  it('the margin check counts the slippage: an opening that fits without it is refused with it', async () => {
    // 1,000 cash; a BUY of 95 units at 101 wants 959.5 of initial margin (10 %) and leaves
    // 1,000 − 95 (spread) − 4.8 (fee) = 900.2 of equity: over 475 maintenance, it fills. With
    // 500 bps of slippage it costs 95 × 5.05 more: equity 420.6, under the maintenance margin.
    const market = view(snapshot({ bid: 99, ask: 101 }));
    const without = await openHarness({ startingCash: 1_000 });
    expect((await without.venue.submit(order({ side: 'BUY', qty: 95 }), market)).order.status).toBe('filled');
    const slipped = await openHarness({ startingCash: 1_000, slippageBps: 500 });
    const refused = await slipped.venue.submit(order({ side: 'BUY', qty: 95 }), market);
    expect(refused.order.status).toBe('rejected');
    expect(refused.order.rejectReason).toMatch(/^INSUFFICIENT_MARGIN/);
  });
});

describe('paper venue: MARK_PRICE', () => {
  it('marks at the mid by default and at the last price with markPrice close', async () => {
    const market = view(withLast(snapshot({ bid: 99, ask: 101 }), 100.5));
    const mid = await openHarness();
    await mid.venue.submit(order({ side: 'BUY', qty: 1 }), market);
    await mid.venue.onMarket(market);
    expect((await mid.venue.account()).positions[0]).toMatchObject({ symbol: PERP.symbol, markPrice: 100 });
    const close = await openHarness({ markPrice: 'close' });
    await close.venue.submit(order({ side: 'BUY', qty: 1 }), market);
    await close.venue.onMarket(market);
    expect((await close.venue.account()).positions[0]).toMatchObject({ markPrice: 100.5, unrealizedPnl: -0.5 });
  });
});

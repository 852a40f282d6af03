/**
 * NAV and PnL arithmetic on hand-computed examples: perps move cash only by realized PnL, fees
 * and funding; spot moves the notional; NAV = cash + perp unrealized + spot holdings at mark;
 * the peak NAV trails the highest NAV the venue has seen.
 */
import { describe, expect, it } from 'vitest';
import { openHarness, order, SPOT, snapshot, view } from './fixtures.js';

describe('paper venue: NAV and PnL', () => {
  it('matches a hand-computed perp round trip', async () => {
    const { venue } = await openHarness();

    // Buy 2 at the ask 100.10: fee 2 × 100.10 × 0.0005 = 0.1001.
    await venue.submit(order({ side: 'BUY', qty: 2 }), view(snapshot({ bid: 100, ask: 100.1 })));
    let a = await venue.account();
    expect(a.cash).toBeCloseTo(99_999.8999, 9);
    expect(a.unrealizedPnl).toBeCloseTo(2 * (100.05 - 100.1), 9); // marked at mid 100.05
    expect(a.nav).toBeCloseTo(99_999.7999, 9);
    expect(a.peakNav).toBe(100_000);

    // Mid 110.10: unrealized 2 × 10 = 20 → NAV 100 019.8999, a new peak.
    a = await venue.account(view(snapshot({ bid: 110, ask: 110.2 })));
    expect(a.nav).toBeCloseTo(100_019.8999, 9);
    expect(a.peakNav).toBeCloseTo(100_019.8999, 9);

    // Sell 1 at the bid 110: realized 9.90, fee 0.055.
    await venue.submit(order({ side: 'SELL', qty: 1 }), view(snapshot({ bid: 110, ask: 110.2 })));
    a = await venue.account();
    expect(a.realizedPnl).toBeCloseTo(9.9, 9);
    expect(a.feesPaid).toBeCloseTo(0.1551, 9);
    expect(a.cash).toBeCloseTo(100_009.7449, 9);
    expect(a.positions).toEqual([
      {
        symbol: 'TESTUSDT',
        kind: 'perp',
        qty: 1,
        entryPrice: 100.1,
        markPrice: 110.1,
        unrealizedPnl: expect.closeTo(10, 9),
        realizedPnl: expect.closeTo(9.9, 9),
      },
    ]);
    expect(a.nav).toBeCloseTo(100_019.7449, 9);

    // Mid 90.10: unrealized −10; the peak stays.
    a = await venue.account(view(snapshot({ bid: 90, ask: 90.2 })));
    expect(a.nav).toBeCloseTo(99_999.7449, 9);
    expect(a.peakNav).toBeCloseTo(100_019.8999, 9);
    expect(a.nav).toBeCloseTo(100_000 + a.realizedPnl + a.unrealizedPnl - a.feesPaid + a.fundingPnl, 9);
  });

  it('books a flip: closing PnL realized, the rest opens at the fill price', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 1 }), view(snapshot({ bid: 99.9, ask: 100 })));
    await venue.submit(order({ side: 'SELL', qty: 3 }), view(snapshot({ bid: 105, ask: 105.1 })));
    const a = await venue.account();
    expect(a.realizedPnl).toBeCloseTo(5, 9);
    expect(a.positions[0]).toMatchObject({ qty: -2, entryPrice: 105 });
  });

  it('values spot holdings at mark and realizes against average cost', async () => {
    const { venue } = await openHarness({ takerFee: 0 });
    const at = (bid: number, ask: number) => view(snapshot({ symbol: SPOT.symbol, bid, ask }));
    await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 10 }), at(39.9, 40));
    await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 10 }), at(59.9, 60));
    let a = await venue.account(at(49.9, 50.1));
    // Cost 400 + 600; average 50; holdings 20 × 50 = 1000 at mid 50.
    expect(a.cash).toBeCloseTo(99_000, 9);
    expect(a.positions[0]).toMatchObject({ kind: 'spot', qty: 20, entryPrice: 50, markPrice: 50 });
    expect(a.nav).toBeCloseTo(100_000, 9);
    await venue.submit(order({ symbol: SPOT.symbol, side: 'SELL', qty: 5 }), at(70, 70.2));
    a = await venue.account();
    expect(a.realizedPnl).toBeCloseTo(5 * 20, 9);
    expect(a.cash).toBeCloseTo(99_350, 9);
    expect(a.nav).toBeCloseTo(99_350 + 15 * 70.1, 9);
    expect(a.unrealizedPnl).toBeCloseTo(15 * (70.1 - 50), 9);
    expect(a.nav).toBeCloseTo(100_000 + a.realizedPnl + a.unrealizedPnl - a.feesPaid + a.fundingPnl, 9);
  });

  it('reports resting orders in the account snapshot and stamps it with the clock', async () => {
    const { venue, clock } = await openHarness();
    await venue.submit(
      order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 90 }),
      view(snapshot({ bid: 99, ask: 101 })),
    );
    clock.set(42);
    const a = await venue.account();
    expect(a.openOrders).toHaveLength(1);
    expect(a.ts).toBe(42);
  });
});

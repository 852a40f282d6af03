/**
 * Issue 20 item 6: the paper venue's liquidation keeps NAV at or above zero. A liquidation pays a
 * liquidation fee (LIQUIDATION_FEE × the close's notional, on top of the taker fee) into an
 * insurance fund, charged only from the equity the close leaves; a gap that takes the account past
 * zero is covered by that fund, so the account's NAV floors at zero and the fund's balance is
 * reported with each liquidation.
 */
import { describe, expect, it } from 'vitest';
import { resolvePaperVenueConfig } from '../../../src/adapters/paper-venue/config.js';
import type { MarketView } from '../../../src/domain/market.js';
import { openHarness, order, snapshot, view } from './fixtures.js';

const DEEP = 1_000_000;

/** A perp market with bid/ask one cent either side of `mid` and a deep book. */
function deepAt(mid: number): MarketView {
  const bid = Math.round((mid - 0.01) * 100) / 100;
  const ask = Math.round((mid + 0.01) * 100) / 100;
  return view(snapshot({ bid, ask, bids: [{ price: bid, qty: DEEP }], asks: [{ price: ask, qty: DEEP }] }));
}

describe('paper venue: liquidation fee and insurance fund', () => {
  it('a 3× long through a 40 % gap ends at NAV 0, the fund covering the loss below zero', async () => {
    const { venue } = await openHarness();
    // 3,000 × 100 = 300,000 notional on 100,000: 3× leverage.
    expect((await venue.submit(order({ side: 'BUY', qty: 3_000 }), deepAt(100))).order.status).toBe('filled');
    const update = await venue.onMarket(deepAt(60));
    expect(update.liquidations).toHaveLength(1);
    const [liquidation] = update.liquidations;
    const account = await venue.account();
    expect(account.positions).toEqual([]);
    expect(account.nav).toBe(0);
    // Equity before the cover: 100,000 − 150.015 fee − 3,000 × (100.01 − 59.99) − 89.985 taker fee.
    const deficit = 100_000 - 150.015 - 3_000 * (100.01 - 59.99) - 89.985;
    expect(liquidation).toMatchObject({ liquidationFee: 0, insuranceCover: expect.closeTo(-deficit, 6) });
    expect(account.insuranceCover).toBeCloseTo(-deficit, 6);
    // The ledger still reconciles, with the fund's cover as its own term.
    expect(account.nav).toBeCloseTo(
      100_000 +
        account.realizedPnl +
        account.unrealizedPnl -
        account.feesPaid +
        account.fundingPnl +
        account.insuranceCover!,
      6,
    );
  });

  it('charges the liquidation fee on the close when equity is left, and the fund keeps it', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 9_000 }), deepAt(100));
    // Equity 99,550 − 9,000 × (100.01 − 93.5) sits at maintenance (5 % of 841,500): liquidated.
    const update = await venue.onMarket(deepAt(93.5));
    const [liquidation] = update.liquidations;
    expect(liquidation).toMatchObject({ qty: 9_000, price: 93.49, fee: 420.705 });
    // 0.5 % of the close's notional 841,410.
    expect(liquidation?.liquidationFee).toBeCloseTo(4_207.05, 6);
    expect(liquidation?.insuranceCover).toBe(0);
    expect(liquidation?.insuranceFund).toBeCloseTo(4_207.05, 6);
    const account = await venue.account();
    expect(account.nav).toBeCloseTo(40_959.955 - 420.705 - 90 - 4_207.05, 6);
    expect(account.feesPaid).toBeCloseTo(450.045 + 420.705 + 4_207.05, 6);
  });

  it('charges only what equity the close leaves, so the fee never takes NAV below zero', async () => {
    const { venue } = await openHarness({ liquidationFee: 0.05 });
    await venue.submit(order({ side: 'BUY', qty: 9_000 }), deepAt(100));
    const [liquidation] = (await venue.onMarket(deepAt(90))).liquidations;
    const left = 100_000 - 450.045 - 9_000 * (100.01 - 89.99) - 9_000 * 89.99 * 0.0005;
    expect(left).toBeGreaterThan(0);
    expect(liquidation?.liquidationFee).toBeCloseTo(left, 6);
    expect((await venue.account()).nav).toBeCloseTo(0, 6);
  });

  it('validates LIQUIDATION_FEE as a fraction in [0, 0.1)', () => {
    expect(resolvePaperVenueConfig().liquidationFee).toBe(0.005);
    expect(resolvePaperVenueConfig({ liquidationFee: 0 }).liquidationFee).toBe(0);
    for (const bad of [-0.001, 0.1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => resolvePaperVenueConfig({ liquidationFee: bad })).toThrow(/liquidationFee/);
    }
  });

  it('refuses an opening order whose own fill through a thin book would spend the equity margining it', async () => {
    const { venue } = await openHarness({ margin: { fallback: { initial: 0.02, maintenance: 0.002 }, bySymbol: {} } });
    // 1 unit at the touch: a 2,500-unit buy overflows the book and pays ~83 % over the mark.
    const thin = view(
      snapshot({ bid: 99.99, ask: 100.01, bids: [{ price: 99.99, qty: 1 }], asks: [{ price: 100.01, qty: 1 }] }),
    );
    const result = await venue.submit(order({ side: 'BUY', qty: 2_500 }), thin);
    expect(result.order).toMatchObject({ status: 'rejected' });
    expect(result.order.rejectReason).toMatch(
      /^INSUFFICIENT_MARGIN: BUY 2500 TESTUSDT would cost .* to fill against the book/,
    );
    const account = await venue.account();
    expect(account.nav).toBe(100_000);
    expect(account.positions).toEqual([]);
    // The same order on a book that holds it passes: ordinary orders cost far less than the margin.
    expect((await venue.submit(order({ side: 'BUY', qty: 2_500 }), deepAt(100))).order.status).toBe('filled');
  });
});

/**
 * Funding settlement: at the first market at or after an announced funding time, longs pay
 * rate × qty × mark and shorts receive it (reversed for negative rates), exactly once per funding
 * time; spot never pays funding; a venue that has not seen the announcement does not charge it.
 */
import { describe, expect, it } from 'vitest';
import { openHarness, order, SPOT, snapshot, view } from './fixtures.js';

const H8 = 8 * 3_600_000;
const T = 10 * H8;

function perpAt(ts: number, rate: number, bid = 99, ask = 101) {
  return view(snapshot({ bid, ask, ts, fundingRate: rate, nextFundingTs: ts < T ? T : T + H8 }));
}

describe('paper venue: funding', () => {
  it('charges a long rate × notional at the funding time, once', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 2 }), perpAt(T - 120_000, 0.001));
    await venue.onMarket(perpAt(T - 60_000, 0.001));
    let account = await venue.account();
    expect(account.fundingPnl).toBe(0);

    // The funding time passes: 0.001 × 2 × mark 110 = 0.22 paid by the long.
    await venue.onMarket(perpAt(T, 0.0004, 109, 111));
    account = await venue.account();
    expect(account.fundingPnl).toBeCloseTo(-0.22, 12);
    const cashAfterFunding = account.cash;

    // Later markets before the next funding time settle nothing more.
    await venue.onMarket(perpAt(T + 60_000, 0.0004, 109, 111));
    await venue.onMarket(perpAt(T + 120_000, 0.0004, 109, 111));
    account = await venue.account();
    expect(account.fundingPnl).toBeCloseTo(-0.22, 12);
    expect(account.cash).toBe(cashAfterFunding);

    // The next funding time settles with the rate announced for it.
    await venue.onMarket(perpAt(T + H8, 0.0004));
    expect((await venue.account()).fundingPnl).toBeCloseTo(-0.22 - 0.0004 * 2 * 100, 12);
  });

  it('pays a short when funding is positive and charges it when negative', async () => {
    const positive = await openHarness();
    await positive.venue.submit(order({ side: 'SELL', qty: 1 }), perpAt(T - 60_000, 0.0006));
    await positive.venue.onMarket(perpAt(T, 0.0006));
    expect((await positive.venue.account()).fundingPnl).toBeCloseTo(0.0006 * 100, 12);

    const negative = await openHarness();
    await negative.venue.submit(order({ side: 'SELL', qty: 1 }), perpAt(T - 60_000, -0.0006));
    await negative.venue.onMarket(perpAt(T, -0.0006));
    expect((await negative.venue.account()).fundingPnl).toBeCloseTo(-0.0006 * 100, 12);
  });

  it('moves cash by the funding and keeps NAV = cash + unrealized', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 1 }), perpAt(T - 60_000, 0.001));
    const before = await venue.account();
    await venue.onMarket(perpAt(T, 0.001));
    const after = await venue.account();
    expect(after.cash - before.cash).toBeCloseTo(-0.1, 9);
    expect(after.nav).toBeCloseTo(after.cash + after.unrealizedPnl, 9);
  });

  it('settles on submit too, so a position opened after the funding time does not pay it', async () => {
    const { venue } = await openHarness();
    await venue.onMarket(perpAt(T - 60_000, 0.002));
    // No onMarket at T: the first the venue sees of T is this submit.
    await venue.submit(order({ side: 'BUY', qty: 1 }), perpAt(T + 60_000, 0.0001));
    await venue.onMarket(perpAt(T + 120_000, 0.0001));
    expect((await venue.account()).fundingPnl).toBe(0);
  });

  it('does not charge a funding time the venue never saw announced', async () => {
    const { venue } = await openHarness();
    await venue.submit(
      order({ side: 'BUY', qty: 1 }),
      view(snapshot({ bid: 99, ask: 101, ts: T + 1, fundingRate: 0.01, nextFundingTs: null })),
    );
    await venue.onMarket(perpAt(T + 60_000, 0.01));
    expect((await venue.account()).fundingPnl).toBe(0);
  });

  it('charges nothing on spot holdings', async () => {
    const { venue } = await openHarness();
    const spot = (ts: number) =>
      view(
        snapshot({ symbol: SPOT.symbol, bid: 50, ask: 50.02, ts }),
        snapshot({ bid: 99, ask: 101, ts, fundingRate: 0.01, nextFundingTs: ts < T ? T : T + H8 }),
      );
    await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 10 }), spot(T - 60_000));
    await venue.onMarket(spot(T));
    expect((await venue.account()).fundingPnl).toBe(0);
  });

  it('survives a restart between the announcement and the funding time', async () => {
    const harness = await openHarness();
    await harness.venue.submit(order({ side: 'BUY', qty: 1 }), perpAt(T - 60_000, 0.001));
    const restarted = await harness.reopen();
    await restarted.onMarket(perpAt(T, 0.001));
    await restarted.onMarket(perpAt(T + 60_000, 0.001));
    const again = await harness.reopen();
    await again.onMarket(perpAt(T + 120_000, 0.001));
    expect((await again.account()).fundingPnl).toBeCloseTo(-0.1, 12);
  });

  it('pays every funding time a restart gap spans, once each, and none again afterwards', async () => {
    const harness = await openHarness();
    const at = (ts: number, next: number) =>
      view(snapshot({ bid: 99, ask: 101, ts, fundingRate: 0.0005, nextFundingTs: next }));
    await harness.venue.submit(order({ side: 'SELL', qty: 4 }), at(T - 60_000, T));
    // The process is down from before T to halfway between T + 24 h and T + 32 h: T, +8 h, +16 h, +24 h.
    const restarted = await harness.reopen();
    await restarted.onMarket(at(T + 3 * H8 + H8 / 2, T + 4 * H8));
    const receivedPerTime = 0.0005 * 4 * 100;
    expect((await restarted.account()).fundingPnl).toBeCloseTo(4 * receivedPerTime, 9);
    await restarted.onMarket(at(T + 3 * H8 + H8 / 2 + 60_000, T + 4 * H8));
    expect((await restarted.account()).fundingPnl).toBeCloseTo(4 * receivedPerTime, 9);
    await restarted.onMarket(at(T + 4 * H8, T + 5 * H8));
    expect((await restarted.account()).fundingPnl).toBeCloseTo(5 * receivedPerTime, 9);
  });

  it('pays a settlement the snapshot names at the rate it settled at, not the rate announced before it', async () => {
    const { venue } = await openHarness();
    const at = (ts: number, announced: number, settled: { ts: number; rate: number } | null) =>
      view({
        ...snapshot({ bid: 99, ask: 101, ts, fundingRate: announced, nextFundingTs: ts < T ? T : T + H8 }),
        settledFunding: settled === null ? [] : [settled],
      });
    await venue.submit(order({ side: 'BUY', qty: 2 }), at(T - 60_000, 0.001, null));
    // Announced +0.1 %, settled at −0.2 %: the long receives 0.002 × 2 × 100.
    await venue.onMarket(at(T, 0.0005, { ts: T, rate: -0.002 }));
    expect((await venue.account()).fundingPnl).toBeCloseTo(0.4, 12);
    // A settlement the snapshot does not name (another time) is paid at the announced 0.05 %.
    await venue.onMarket(at(T + H8, 0.0005, { ts: T + H8 - 1, rate: 0.01 }));
    expect((await venue.account()).fundingPnl).toBeCloseTo(0.4 - 0.0005 * 2 * 100, 12);
  });

  it('after a restart gap pays the named settlement at its rate and the others at the announced one', async () => {
    const harness = await openHarness();
    const at = (ts: number, next: number, settled: { ts: number; rate: number } | null) =>
      view({
        ...snapshot({ bid: 99, ask: 101, ts, fundingRate: 0.0005, nextFundingTs: next }),
        settledFunding: settled === null ? [] : [settled],
      });
    await harness.venue.submit(order({ side: 'SELL', qty: 4 }), at(T - 60_000, T, null));
    // Down from before T to after T + 16 h: T and T + 8 h at the announced 0.05 %, T + 16 h at its own −0.1 %.
    const restarted = await harness.reopen();
    await restarted.onMarket(at(T + 2 * H8 + 60_000, T + 3 * H8, { ts: T + 2 * H8, rate: -0.001 }));
    expect((await restarted.account()).fundingPnl).toBeCloseTo(2 * 0.0005 * 4 * 100 - 0.001 * 4 * 100, 9);
  });

  it('keeps what each symbol paid, after its position closed and across a restart', async () => {
    const harness = await openHarness();
    await harness.venue.submit(order({ side: 'BUY', qty: 2 }), perpAt(T - 60_000, 0.001));
    await harness.venue.onMarket(perpAt(T, 0.001));
    await harness.venue.submit(order({ side: 'SELL', qty: 2 }), perpAt(T + 60_000, 0.001));
    const account = await harness.venue.account();
    expect(account.positions).toEqual([]);
    expect(account.fundingBySymbol).toEqual({ TESTUSDT: -0.2 });
    const restarted = await harness.reopen();
    expect((await restarted.account()).fundingBySymbol).toEqual({ TESTUSDT: -0.2 });
    // Nothing held at the next funding time: nothing more paid.
    await restarted.onMarket(perpAt(T + H8, 0.001));
    expect((await restarted.account()).fundingBySymbol).toEqual({ TESTUSDT: -0.2 });
  });
});

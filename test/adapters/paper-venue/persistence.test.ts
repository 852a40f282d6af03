/**
 * Restart safety: everything lives in `paper:state`, written before each operation returns, so a
 * second venue opened on the same store sees the same cash, positions, open orders, funding
 * bookkeeping, peak NAV and idempotency memory. Covers the terminal-order bound, a failed write
 * (the operation fails and memory rolls back to the store), and a corrupt document (an error,
 * never a silent reset).
 */
import { describe, expect, it } from 'vitest';
import { openPaperVenue, PAPER_STATE_KEY } from '../../../src/adapters/paper-venue/index.js';
import { createMemoryKv } from '../../support/memory-kv.js';
import { INSTRUMENTS, openHarness, order, SPOT, snapshot, testClock, view } from './fixtures.js';

const market = view(snapshot({ bid: 99, ask: 101 }), snapshot({ symbol: SPOT.symbol, bid: 49.99, ask: 50.01 }));

describe('paper venue: persistence', () => {
  it('a restarted venue keeps cash, positions, open orders, peak NAV and idempotency', async () => {
    const harness = await openHarness();
    const { venue } = harness;
    const filled = order({ side: 'BUY', qty: 2 });
    await venue.submit(filled, market);
    await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 3 }), market);
    const resting = order({ side: 'SELL', qty: 1, type: 'limit', limitPrice: 120 });
    await venue.submit(resting, market);
    await venue.account(view(snapshot({ bid: 130, ask: 131 })));
    const before = await venue.account(market);

    const restarted = await harness.reopen();
    expect(await restarted.account()).toEqual(before);
    expect(await restarted.openOrders()).toEqual(await venue.openOrders());
    const replay = await restarted.submit(filled, market);
    expect(replay.duplicate).toBe(true);
    expect((await restarted.account()).positions).toEqual(before.positions);
    expect(before.peakNav).toBeGreaterThan(before.nav);

    // The resting order still fills after the restart.
    const { fills } = await restarted.onMarket(view(snapshot({ bid: 121, ask: 122 })));
    expect(fills.map((f) => f.clientOrderId)).toEqual([resting.clientOrderId]);
  });

  it("with persistence 'process' the account lives in the process: nothing is read or written", async () => {
    const kv = createMemoryKv();
    await kv.set(PAPER_STATE_KEY, { v: 1, not: 'an account this venue may read' });
    const writesBefore = kv.sets;
    const venue = await openPaperVenue({
      kv,
      instruments: INSTRUMENTS,
      clock: testClock(1_700_000_000_000),
      persistence: 'process',
    });
    await venue.submit(order({ side: 'BUY', qty: 2 }), market);
    const account = await venue.account(market);
    expect(account.positions.map((p) => [p.symbol, p.qty])).toEqual([['TESTUSDT', 2]]);
    expect(account.cash).toBeLessThan(100_000);
    expect(kv.sets).toBe(writesBefore);
  });

  it('ignores startingCash for an existing account', async () => {
    const harness = await openHarness();
    await harness.venue.submit(order({ side: 'BUY', qty: 1 }), market);
    const restarted = await harness.reopen({ startingCash: 5 });
    expect((await restarted.account()).cash).toBeCloseTo(100_000 - 101 * 0.0005, 9);
    // The account says what it started from (the console's PnL since start), also after a restart.
    expect((await restarted.account()).startingCash).toBe(100_000);
  });

  it('uses startingCash for a new account', async () => {
    const { venue } = await openHarness({ startingCash: 2_500 });
    const a = await venue.account();
    expect(a).toMatchObject({ cash: 2_500, nav: 2_500, peakNav: 2_500, startingCash: 2_500 });
  });

  it('writes before returning, under paper:state, compactly', async () => {
    const { venue, kv } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 1 }), market);
    const text = kv.raw.get(PAPER_STATE_KEY);
    expect(text).toBeDefined();
    expect(JSON.parse(text ?? '{}')).toMatchObject({ v: 1, positions: { TESTUSDT: ['perp', 1, 101, 0] } });
    expect(text?.length).toBeLessThan(600);
  });

  it('remembers at most maxTerminalOrders terminal orders, forgetting the oldest', async () => {
    const { venue } = await openHarness({ maxTerminalOrders: 3 });
    const ids = ['o1', 'o2', 'o3', 'o4'];
    for (const id of ids) await venue.submit(order({ side: 'BUY', qty: 1, clientOrderId: id }), market);
    expect((await venue.submit(order({ side: 'BUY', qty: 1, clientOrderId: 'o4' }), market)).duplicate).toBe(true);
    // o1 was forgotten, so its id executes again.
    expect((await venue.submit(order({ side: 'BUY', qty: 1, clientOrderId: 'o1' }), market)).duplicate).toBe(false);
    expect((await venue.account()).positions[0]?.qty).toBe(5);
  });

  it('fails the operation when the write fails, then carries on from what was stored', async () => {
    const { venue, kv } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 1 }), market);
    const stored = await venue.account();
    kv.failNextSets(1);
    const lost = order({ side: 'BUY', qty: 4 });
    await expect(venue.submit(lost, market)).rejects.toThrow(/simulated write failure/);
    // The failed order never happened: the account is the stored one and the id is free.
    expect(await venue.account()).toEqual(stored);
    const retry = await venue.submit(lost, market);
    expect(retry.duplicate).toBe(false);
    expect((await venue.account()).positions[0]?.qty).toBe(5);
  });

  it('refuses to open on a corrupt document instead of resetting the account', async () => {
    const { kv } = await openHarness();
    await kv.set(PAPER_STATE_KEY, { v: 1, cash: 'lots' });
    await expect(openPaperVenue({ kv, instruments: INSTRUMENTS, clock: { now: () => 0 } })).rejects.toThrow(
      /paper:state .* unreadable/,
    );
    await kv.set(PAPER_STATE_KEY, { v: 99 });
    await expect(openPaperVenue({ kv, instruments: INSTRUMENTS, clock: { now: () => 0 } })).rejects.toThrow(
      /version 99/,
    );
  });

  it('rejects bad configuration with a clear message', async () => {
    await expect(openHarness({ takerFee: 0.5 })).rejects.toThrow(/takerFee/);
    await expect(openHarness({ startingCash: -1 })).rejects.toThrow(/startingCash/);
    await expect(openHarness({ maxTerminalOrders: 0 })).rejects.toThrow(/maxTerminalOrders/);
  });
});

/**
 * The paper venue as a margin account, on a real SQLite store: orders that need more initial margin
 * than is free are refused (INSUFFICIENT_MARGIN), resting opening orders tie margin up, orders that
 * only reduce never need margin, spot sells are capped at holdings, and an account at maintenance
 * margin is liquidated at the venue — reported by the cycle as a `position_liquidated` line and
 * audit entry before NAV can fall below zero; a gap past zero is covered by the insurance fund.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createCycleIo } from '../../../src/application/cycle-io.js';
import { createFillAudit } from '../../../src/application/fill-audit.js';
import type { EventLine } from '../../../src/domain/event-lines.js';
import type { MarketView } from '../../../src/domain/market.js';
import { INSTRUMENTS, openStoreHarness, order, SPOT, snapshot, view } from './fixtures.js';
import type { StoreHarness } from './fixtures.js';

const DEEP = 1_000_000;
let harness: StoreHarness | undefined;
afterEach(async () => {
  await harness?.cleanup();
  harness = undefined;
});

async function open(config?: Parameters<typeof openStoreHarness>[0]): Promise<StoreHarness> {
  harness = await openStoreHarness(config);
  return harness;
}

/** A perp market with bid/ask one cent either side of `mid` and a deep book. */
function deepAt(mid: number, ts = 0): MarketView {
  const bid = Math.round((mid - 0.01) * 100) / 100;
  const ask = Math.round((mid + 0.01) * 100) / 100;
  return view(snapshot({ bid, ask, ts, bids: [{ price: bid, qty: DEEP }], asks: [{ price: ask, qty: DEEP }] }));
}

describe('paper venue: initial margin', () => {
  it('accepts an order up to the free margin and refuses one beyond it, changing nothing', async () => {
    const { venue } = await open();
    // 10 % of 10,000 × ask 100.01 = 100,010 > 100,000 of equity.
    const refused = await venue.submit(order({ side: 'BUY', qty: 10_000 }), deepAt(100));
    expect(refused.order).toMatchObject({ status: 'rejected', filledQty: 0 });
    expect(refused.order.rejectReason).toBe(
      'INSUFFICIENT_MARGIN: BUY 10000 TESTUSDT needs 100010.00 of initial margin, free is 100000.00 ' +
        '(equity 100000.00, used 0.00)',
    );
    expect(await venue.account()).toMatchObject({ cash: 100_000, positions: [] });
    // 9,999 × 100.01 × 10 % = 99,999.0: fits.
    expect((await venue.submit(order({ side: 'BUY', qty: 9_999 }), deepAt(100))).order.status).toBe('filled');
  });

  it('uses the per-symbol rates of the table', async () => {
    const { venue } = await open({
      margin: {
        fallback: { initial: 0.1, maintenance: 0.05 },
        bySymbol: { TESTUSDT: { initial: 0.5, maintenance: 0.25 } },
      },
    });
    // At 50 % initial, 100 k of equity margins 200 k of notional: 2,000 at 100 fits, 2,001 does not.
    expect((await venue.submit(order({ side: 'BUY', qty: 2_001 }), deepAt(100))).order.status).toBe('rejected');
    expect((await venue.submit(order({ side: 'BUY', qty: 1_999 }), deepAt(100))).order.status).toBe('filled');
  });

  it('counts resting opening orders at their limit until they are cancelled', async () => {
    const { venue } = await open();
    const quiet = deepAt(100);
    // Resting buy of 5,000 at 99: 49,500 of margin tied up.
    const resting = await venue.submit(order({ side: 'BUY', qty: 5_000, type: 'limit', limitPrice: 99 }), quiet);
    expect(resting.order.status).toBe('open');
    const market = await venue.submit(order({ side: 'BUY', qty: 5_100 }), quiet);
    expect(market.order).toMatchObject({ status: 'rejected', rejectReason: expect.stringMatching(/used 49500.00\)$/) });
    // A resting sell on the other side is the worse side only beyond 5,000: a sell of 4,000 needs nothing more.
    const hedge = await venue.submit(order({ side: 'SELL', qty: 4_000, type: 'limit', limitPrice: 101 }), quiet);
    expect(hedge.order.status).toBe('open');
    await venue.cancelAll();
    expect((await venue.submit(order({ side: 'BUY', qty: 5_100 }), quiet)).order.status).toBe('filled');
  });
});

describe('paper venue: orders that only reduce never need margin', () => {
  /** A 9× long at 100, then the market at 95: equity ≈ 54 k, initial margin used 85.5 k, free < 0. */
  async function underwater() {
    const { venue } = await open();
    await venue.submit(order({ side: 'BUY', qty: 9_000 }), deepAt(100));
    const update = await venue.onMarket(deepAt(95));
    expect(update.liquidations).toEqual([]);
    const account = await venue.account();
    expect(account.nav).toBeLessThan(0.1 * 9_000 * 95);
    return venue;
  }

  it('refuses anything that opens more, even one lot', async () => {
    const venue = await underwater();
    const result = await venue.submit(order({ side: 'BUY', qty: 1 }), deepAt(95));
    expect(result.order.rejectReason).toMatch(/^INSUFFICIENT_MARGIN: .*free is -/);
  });

  it('fills a reduce-only close and a plain order that only reduces, but not one that flips beyond', async () => {
    const venue = await underwater();
    const reduceOnly = await venue.submit(order({ side: 'SELL', qty: 3_000, reduceOnly: true }), deepAt(95));
    expect(reduceOnly.order.status).toBe('filled');
    const plain = await venue.submit(order({ side: 'SELL', qty: 3_000 }), deepAt(95));
    expect(plain.order.status).toBe('filled');
    const limit = await venue.submit(order({ side: 'SELL', qty: 2_000, type: 'limit', limitPrice: 96 }), deepAt(95));
    expect(limit.order.status).toBe('open');
    // 3,000 long left; selling 9,000 would leave a 6,000 short, which needs fresh margin.
    const flip = await venue.submit(order({ side: 'SELL', qty: 9_000 }), deepAt(95));
    expect(flip.order.rejectReason).toMatch(/^INSUFFICIENT_MARGIN/);
    expect((await venue.account()).positions[0]?.qty).toBe(3_000);
  });
});

describe('paper venue: spot', () => {
  it('caps sells at holdings with a code, and spot needs no margin', async () => {
    const { venue } = await open();
    const spot = view(snapshot({ symbol: SPOT.symbol, bid: 50, ask: 50.02 }));
    // 1,900 × 50.02 = 95,038: paid in full from cash, no margin on top.
    expect((await venue.submit(order({ symbol: SPOT.symbol, side: 'BUY', qty: 1_900 }), spot)).order.status).toBe(
      'filled',
    );
    const before = await venue.account();
    const oversell = await venue.submit(order({ symbol: SPOT.symbol, side: 'SELL', qty: 1_900.01 }), spot);
    expect(oversell.order).toMatchObject({ status: 'rejected', filledQty: 0 });
    expect(oversell.order.rejectReason).toBe(
      'INSUFFICIENT_HOLDINGS: spot cannot go short: SELL 1900.01 COINUSDT exceeds holdings of 1900',
    );
    expect(await venue.account()).toMatchObject({ cash: before.cash, positions: before.positions });
    expect((await venue.submit(order({ symbol: SPOT.symbol, side: 'SELL', qty: 1_900 }), spot)).order.status).toBe(
      'filled',
    );
  });
});

describe('paper venue: liquidation', () => {
  /** The cycle's loadMarket over this venue and store, fed `markets` one per cycle. */
  function cycleOver(h: StoreHarness, markets: MarketView[]) {
    const lines: EventLine[] = [];
    const events = { emit: (line: EventLine) => lines.push(line) };
    const io = createCycleIo({
      store: h.store,
      venue: h.venue,
      feed: { instruments: INSTRUMENTS, next: async () => markets.shift() ?? new Map() },
      clock: h.clock,
      events,
      fillAudit: createFillAudit({ store: h.store, events, clock: h.clock, log: pino({ level: 'silent' }) }),
      circuitBreakerDrawdown: null,
      // No drawdown limit here: these tests are about the venue's liquidation alone.
      maxDrawdown: Number.POSITIVE_INFINITY,
      instruments: INSTRUMENTS,
      rememberMarket: () => {},
      accountChanged: async () => {},
      cycleStartedAt: () => undefined,
    });
    // No order manager here: a cancel the breaker asked for would fail the test loudly.
    const links = {
      cancel: () => Promise.reject(new Error('no cancel expected here')),
      syncControl: () => {},
      pumpCommands: async () => {},
    };
    return { lines, loadMarket: () => io.loadMarket({ epoch: 0 }, links) };
  }

  it('closes the account at maintenance, cancels its resting orders, and records a line and an audit entry', async () => {
    const h = await open();
    await h.venue.submit(order({ side: 'BUY', qty: 9_000 }), deepAt(100));
    await h.venue.submit(order({ side: 'BUY', qty: 10, type: 'limit', limitPrice: 50 }), deepAt(100));
    const path: MarketView[] = [];
    for (let mid = 99.5; mid >= 80; mid -= 0.5) path.push(deepAt(mid));
    const cycle = cycleOver(h, path);
    let navs: number[] = [];
    while (path.length > 0) {
      const { account } = await cycle.loadMarket();
      navs = [...navs, account.nav];
      if (!cycle.lines.some((l) => l.event === 'position_liquidated')) expect(account.nav).toBeGreaterThan(0);
    }
    const liquidated = cycle.lines.filter((l) => l.event === 'position_liquidated');
    // Equity 99,550 − 9,000 × (100.01 − mid) meets 5 % × 9,000 × mid between 93.5 and 94: at mid 93.5.
    expect(liquidated).toEqual([
      {
        event: 'position_liquidated',
        symbol: 'TESTUSDT',
        side: 'SELL',
        qty: 9_000,
        price: 93.49,
        fee: 420.705,
        // 0.5 % (LIQUIDATION_FEE's default) of the close's notional 841,410, kept by the insurance fund.
        liquidation_fee: 4_207.05,
        insurance_cover: 0,
        insurance_fund: 4_207.05,
        equity: 40_959.955,
        maintenance_margin: 42_075,
      },
    ]);
    expect(cycle.lines).toContainEqual(
      expect.objectContaining({ event: 'orders_cancelled', reason: 'liquidation', count: 1 }),
    );
    const [entry] = await h.store.events.query({ kind: 'position_liquidated', limit: 10 });
    expect(entry).toMatchObject({ kind: 'position_liquidated', symbol: 'TESTUSDT', body: liquidated[0] });
    expect((await h.store.events.verify()).ok).toBe(true);
    const account = await h.venue.account();
    expect(account.positions).toEqual([]);
    expect(account.openOrders).toEqual([]);
    // Equity at the trigger less the close's taker fee (0.05 % of 841,410), the half spread and the
    // liquidation fee (0.5 % of 841,410).
    expect(account.nav).toBeCloseTo(40_959.955 - 420.705 - 90 - 4_207.05, 6);
    expect(Math.min(...navs)).toBeGreaterThan(0);
  });

  it('reports the liquidation in the same update when a gap takes equity past zero', async () => {
    const { venue } = await open();
    await venue.submit(order({ side: 'BUY', qty: 9_000 }), deepAt(100));
    const update = await venue.onMarket(deepAt(80));
    expect(update.liquidations).toMatchObject([{ symbol: 'TESTUSDT', side: 'SELL', qty: 9_000, price: 79.99 }]);
    // The insurance fund covers the loss past the bankruptcy price: NAV floors at zero (issue 20).
    const account = await venue.account();
    expect(account.positions).toEqual([]);
    expect(account.nav).toBe(0);
    expect(update.liquidations[0]?.insuranceCover).toBeGreaterThan(0);
    expect((await venue.submit(order({ side: 'BUY', qty: 1 }), deepAt(80))).order.rejectReason).toMatch(
      /^INSUFFICIENT_MARGIN/,
    );
  });

  it('liquidates a short as well, with a BUY', async () => {
    const { venue } = await open();
    await venue.submit(order({ side: 'SELL', qty: 9_000 }), deepAt(100));
    expect((await venue.onMarket(deepAt(105))).liquidations).toEqual([]);
    expect((await venue.onMarket(deepAt(106))).liquidations).toMatchObject([
      { side: 'BUY', qty: 9_000, price: 106.01 },
    ]);
  });
});

/**
 * The live account's fees and funding (src/adapters/live-venue/income-tally.ts), read by a real ccxt
 * binanceusdm from the fake exchange's income history (GET /fapi/v1/income) through the live venue's
 * account: the fees of fills and the funding paid on the traded symbols, each counted once, from the
 * tally's start, carried across a restart by its saved state; a failed read leaves the sums and the
 * account still answers. Before, the live account said 0 for both, whatever was paid.
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../../../src/adapters/live-venue/capabilities.js';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { IncomeTally } from '../../../src/adapters/live-venue/income-tally.js';
import type { IncomeState } from '../../../src/adapters/live-venue/income-tally.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import type { RequestGate } from '../../../src/adapters/live-venue/request-gate.js';
import { ccxtClient, openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { startFakeExchange } from '../../support/fake-exchange/server.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { feesBooked, marketFill } from '../../support/fake-exchange/by-hand.js';

const SYMBOLS = symbolMap([['BTCUSDT', 'BTC/USDT:USDT']]);

let t: TradingFake;
/** One gate on the file's client, as the trading process has (no test here meets a 429). */
let gate: RequestGate;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000 });
  await t.exchange.loadMarkets();
  gate = gateRequests(t.exchange, { monotonic: () => performance.now(), now: () => t.fake.venue.now() });
});

beforeEach(() => {
  t.reset();
  t.exchange.timeout = 2_000;
});

afterAll(async () => {
  await t.close();
});

const read = () => CAPABILITIES.binanceusdm.income!(t.exchange);

function tally(
  options: { initial?: IncomeState | null; saved?: IncomeState[]; minIntervalMs?: number; failures?: unknown[] } = {},
) {
  return new IncomeTally({
    fetch: read(),
    symbols: new Set(['BTCUSDT']),
    now: () => t.fake.venue.now(),
    initial: options.initial ?? null,
    save: async (state) => void options.saved?.push(state),
    failing: (err) => void options.failures?.push(err),
    minIntervalMs: options.minIntervalMs ?? 0,
  });
}

function venueWith(income: IncomeTally): LiveVenue {
  return new LiveVenue({
    exchange: t.exchange,
    errors: ccxt,
    gate,
    symbols: SYMBOLS,
    now: () => t.fake.venue.now(),
    sleep: async () => {},
    income,
  });
}

/** The end of a cycle, as the cycle tells the venue (idle), and the read it started, waited for. */
async function cycleEnd(venue: LiveVenue, income: IncomeTally): Promise<void> {
  venue.idle();
  await income.refresh();
}

const incomeReads = () => t.fake.requests.filter((r) => r.startsWith('/fapi/v1/income')).length;
const fill = (symbol: string, side: 'BUY' | 'SELL', qty: number) => marketFill(t.fake.venue, symbol, side, qty);
const feesOn = (symbol: string) => feesBooked(t.fake.venue, symbol);

describe('live account fees and funding from the income history', () => {
  it("sums the fills' fees and the funding paid on the traded symbols, as the exchange booked them", async () => {
    const income = tally();
    const venue = venueWith(income);
    fill('BTCUSDT', 'BUY', 0.02);
    fill('BTCUSDT', 'SELL', 0.01);
    // Another symbol's fee is not this system's.
    fill('ETHUSDT', 'BUY', 0.5);
    const paid = t.fake.venue.payFunding('BTCUSDT', 0.0001);
    expect(paid).toBeLessThan(0);
    await cycleEnd(venue, income);
    const account = await venue.account();
    expect(feesOn('BTCUSDT')).toBeGreaterThan(0);
    expect(account.feesPaid).toBeCloseTo(feesOn('BTCUSDT'), 8);
    expect(account.fundingPnl).toBeCloseTo(paid, 8);
  });

  it('counts each income once, however often it is read', async () => {
    const income = tally();
    const venue = venueWith(income);
    fill('BTCUSDT', 'BUY', 0.01);
    await cycleEnd(venue, income);
    await cycleEnd(venue, income);
    fill('BTCUSDT', 'BUY', 0.01);
    fill('BTCUSDT', 'BUY', 0.01);
    await cycleEnd(venue, income);
    await cycleEnd(venue, income);
    const account = await venue.account();
    expect(t.fake.venue.trades('BTCUSDT')).toHaveLength(3);
    expect(account.feesPaid).toBeCloseTo(feesOn('BTCUSDT'), 8);
  });

  it('starts at its own start on a first run, and goes on from the saved sums after a restart', async () => {
    fill('BTCUSDT', 'BUY', 0.01);
    const before = feesOn('BTCUSDT');
    t.advance(1_000);
    const saved: IncomeState[] = [];
    const first = tally({ saved });
    await first.refresh();
    expect(first.totals().feesPaid).toBe(0);
    fill('BTCUSDT', 'BUY', 0.02);
    await first.refresh();
    const once = first.totals().feesPaid;
    expect(once).toBeCloseTo(feesOn('BTCUSDT') - before, 8);
    expect(saved.at(-1)?.feesPaid).toBe(once);

    // The process restarts with what it saved: nothing counted twice, the next fill added.
    const again = tally({ initial: saved.at(-1)! });
    fill('BTCUSDT', 'SELL', 0.01);
    await again.refresh();
    expect(again.totals().feesPaid).toBeCloseTo(feesOn('BTCUSDT') - before, 8);
  });

  it('keeps fees paid in BNB apart, out of feesPaid, and tells the first one (they are not converted)', async () => {
    const told: string[] = [];
    const income = new IncomeTally({
      fetch: read(),
      symbols: new Set(['BTCUSDT']),
      now: () => t.fake.venue.now(),
      initial: null,
      minIntervalMs: 0,
      unconverted: (asset) => void told.push(asset),
    });
    fill('BTCUSDT', 'BUY', 0.01);
    t.fake.venue.feeIn('BNB', 'BTCUSDT', 0.0004);
    t.fake.venue.feeIn('BNB', 'BTCUSDT', 0.0002);
    // Another symbol's BNB fee is not this system's either.
    t.fake.venue.feeIn('BNB', 'ETHUSDT', 0.5);
    await income.refresh();
    await income.refresh();
    expect(income.totals().feesPaid).toBeCloseTo(feesOn('BTCUSDT'), 8);
    expect([...income.unconvertedFees()]).toEqual([['BNB', 0.0006]]);
    expect(told).toEqual(['BNB']);
  });

  it('keeps the sums through a failed read, and the account still answers', async () => {
    const failures: unknown[] = [];
    const income = tally({ failures });
    const venue = venueWith(income);
    fill('BTCUSDT', 'BUY', 0.01);
    await cycleEnd(venue, income);
    const first = await venue.account();
    fill('BTCUSDT', 'BUY', 0.01);
    t.fake.faults.serverErrors(2, 503, false, { method: 'GET', pathname: '/fapi/v1/income' });
    await cycleEnd(venue, income);
    const during = await venue.account();
    expect(during.feesPaid).toBe(first.feesPaid);
    expect(during.nav).toBeGreaterThan(0);
    await cycleEnd(venue, income);
    // Told once, not at every failed read.
    expect(failures).toHaveLength(1);
    await cycleEnd(venue, income);
    const after = await venue.account();
    expect(after.feesPaid).toBeCloseTo(feesOn('BTCUSDT'), 8);
  });

  it("is read when a cycle is done, never by the account's read on the way to a cycle's orders", async () => {
    // A page weighs 30: ccxt's throttle at Binance's rate holds the next request about 1.5 s after one.
    const income = tally();
    const venue = venueWith(income);
    fill('BTCUSDT', 'BUY', 0.01);
    const before = incomeReads();
    await venue.account();
    await venue.account();
    expect(incomeReads()).toBe(before);
    await cycleEnd(venue, income);
    expect(incomeReads()).toBe(before + 1);
  });

  it('reads the history at most once per interval', async () => {
    const income = tally({ minIntervalMs: 10_000 });
    const venue = venueWith(income);
    await cycleEnd(venue, income);
    const first = incomeReads();
    await cycleEnd(venue, income);
    await cycleEnd(venue, income);
    expect(incomeReads()).toBe(first);
    t.advance(10_000);
    await cycleEnd(venue, income);
    expect(incomeReads()).toBe(first + 1);
  });

  it('counts incomes of different types that share an id and a ms (Binance: tranId is unique per incomeType)', async () => {
    // A clock that stands still, so the fill and the funding are booked in the same ms.
    const at = Date.UTC(2026, 0, 5, 12, 0, 1);
    const fake = await startFakeExchange({ deposit: 100_000, now: () => at });
    const exchange = ccxtClient(fake.url);
    try {
      exchange.options['timeDifference'] = Date.now() - at;
      await exchange.loadMarkets();
      const income = new IncomeTally({
        fetch: CAPABILITIES.binanceusdm.income!(exchange),
        symbols: new Set(['BTCUSDT']),
        now: () => at,
        initial: null,
        minIntervalMs: 0,
      });
      marketFill(fake.venue, 'BTCUSDT', 'BUY', 0.01);
      const paid = fake.venue.payFunding('BTCUSDT', 0.0001);
      const lines = fake.venue.incomeHistory();
      // The fee's and the funding's ids are the same number, under two types.
      expect(new Set(lines.map((l) => l.tranId)).size).toBe(1);
      expect(new Set(lines.map((l) => l.incomeType))).toEqual(new Set(['COMMISSION', 'FUNDING_FEE']));
      await income.refresh();
      expect(income.totals().feesPaid).toBeCloseTo(feesBooked(fake.venue, 'BTCUSDT'), 8);
      expect(income.totals().fundingPnl).toBeCloseTo(paid, 8);
      // And again, the next read from that ms: nothing twice.
      await income.refresh();
      expect(income.totals().feesPaid).toBeCloseTo(feesBooked(fake.venue, 'BTCUSDT'), 8);
      expect(income.totals().fundingPnl).toBeCloseTo(paid, 8);
    } finally {
      await exchange.close();
      await fake.stop();
    }
  });

  it('reads at most one page of the history per cycle, and catches a longer backlog up over the next ones', async () => {
    // Each page weighs 30: ccxt's throttle at Binance's rate (50 ms a unit) holds the next request
    // about 1.5 s after one, so a backlog read in one go (up to 10 pages) held the client that long
    // for each page.
    const income = tally();
    const venue = venueWith(income);
    for (let i = 0; i < 1_100; i++) fill('BTCUSDT', i % 2 === 0 ? 'BUY' : 'SELL', 0.001);
    expect(t.fake.venue.incomeHistory().length).toBeGreaterThan(1_000);
    const before = incomeReads();
    await cycleEnd(venue, income);
    expect(incomeReads()).toBe(before + 1);
    await cycleEnd(venue, income);
    expect(incomeReads()).toBe(before + 2);
    const account = await venue.account();
    expect(account.feesPaid).toBeCloseTo(feesOn('BTCUSDT'), 6);
  });
});

/**
 * The live feed against the local fake Binance USD-M exchange (loopback only): what it serves is
 * what the fake's deterministic market says, a 429 burst is waited out, and a silent exchange
 * leaves the last snapshot with its old stamp within the cycle's time budget.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLiveFeed } from '../../../../src/adapters/market-data/live/index.js';
import type { ElapsedTime, LiveFeed } from '../../../../src/adapters/market-data/live/index.js';
import { startFakeExchange } from '../../../support/fake-exchange/server.js';
import type { FakeExchange } from '../../../support/fake-exchange/server.js';
import {
  bookAt,
  candleAt,
  FUNDING_INTERVAL,
  fundingAt,
  instrumentById,
  MINUTE,
} from '../../../support/fake-exchange/market-data.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 30);
let fake: FakeExchange | undefined;
let feed: LiveFeed | undefined;

afterEach(async () => {
  await feed?.close();
  await fake?.stop();
  fake = undefined;
  feed = undefined;
});

async function open(clock: { t: number }, budgetMs = 3_000, elapsed?: ElapsedTime) {
  fake = await startFakeExchange({ seed: 7, now: () => clock.t });
  feed = await createLiveFeed({
    exchangeId: 'binanceusdm',
    symbols: [{ symbol: 'BTCUSDT', kind: 'perp' }, { symbol: 'SOLUSDT' }],
    baseUrl: fake.url,
    rateLimitMs: 1, // the fake has no rate to respect (ccxt's throttle is tested in exchange.test.ts)
    budgetMs,
    startupMs: 5_000,
    now: () => clock.t,
    random: () => 0.5,
    ...(elapsed ? { elapsed } : {}),
  });
  return { fake, feed };
}

/**
 * The feed's elapsed time (budgets, Retry-After, retry waits) under the test's hand: real time plus
 * what the test moved it on, and waits that record their length and pass at once.
 */
function steppedTime() {
  const time = {
    offset: 0,
    waits: [] as number[],
    now: () => Date.now() + time.offset,
    sleep: async (ms: number) => {
      time.waits.push(ms);
      time.offset += ms;
    },
  };
  return time;
}

describe('live feed (binanceusdm, fake exchange)', () => {
  it('serves the exchange book, candles, funding and instrument steps', async () => {
    const clock = { t: T0 };
    const { feed } = await open(clock);
    expect(feed.ccxtSymbols.get('BTCUSDT')).toBe('BTC/USDT:USDT');
    // The largest orders and the price band are the exchange's filters too (LOT_SIZE, MARKET_LOT_SIZE, PERCENT_PRICE).
    const filters = { maxQty: 1000, marketMaxQty: 120, percentPrice: { up: 1.05, down: 0.95 } };
    expect(feed.instruments).toEqual([
      { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 100, ...filters },
      { symbol: 'SOLUSDT', kind: 'perp', lotSize: 1, tickSize: 0.01, minNotional: 5, ...filters },
    ]);

    clock.t = T0 + 5 * MINUTE;
    const view = await feed.next(clock.t);
    const btc = view.get('BTCUSDT')!;
    const inst = instrumentById('BTCUSDT')!;
    const minute = Math.floor(clock.t / MINUTE) * MINUTE;
    // The closed minutes only: the one still forming (opened at `minute`) is not a bar yet.
    const candles = Array.from({ length: 60 }, (_, i) => candleAt(7, inst, minute - (60 - i) * MINUTE));
    const book = bookAt(7, inst, clock.t);
    expect(btc.ts).toBe(clock.t);
    expect(Array.from(btc.bars.close)).toEqual(candles.map((c) => c.close));
    expect(btc.last).toBe(candles[59]!.close);
    expect(btc.volume).toBeCloseTo(
      candles.reduce((s, c) => s + c.volume, 0),
      6,
    );
    expect(btc.bids).toEqual(book.bids.slice(0, 10).map(([price, qty]) => ({ price, qty })));
    expect(btc.asks).toEqual(book.asks.slice(0, 10).map(([price, qty]) => ({ price, qty })));
    expect([btc.bid, btc.ask]).toEqual([book.bids[0]![0], book.asks[0]![0]]);
    const nextFunding = (Math.floor(clock.t / FUNDING_INTERVAL) + 1) * FUNDING_INTERVAL;
    expect(btc.nextFundingTs).toBe(nextFunding);
    expect(btc.fundingRate).toBeCloseTo(fundingAt(7, inst, nextFunding), 10);
  });

  it('waits out a burst of 429s and then serves fresh data', async () => {
    const clock = { t: T0 };
    const time = steppedTime();
    const { fake, feed } = await open(clock, 8_000, time);
    time.waits.length = 0;
    fake.rateLimit(4, 1);
    const before = fake.requests.length;
    clock.t = T0 + MINUTE;
    const view = await feed.next(clock.t);
    expect(view.get('BTCUSDT')!.ts).toBe(clock.t);
    expect(view.get('SOLUSDT')!.ts).toBe(clock.t);
    // The four refused requests were asked again, each after the 1 s the exchange asked for.
    expect(fake.requests.length - before).toBeGreaterThanOrEqual(4 + 4);
    expect(time.waits).toHaveLength(4);
    for (const wait of time.waits) expect(wait).toBeGreaterThanOrEqual(1_000);
  });

  it('sends no request while a Retry-After longer than the cycle budget runs, then fetches again', async () => {
    const clock = { t: T0 };
    const time = steppedTime();
    const { fake, feed } = await open(clock, 800, time);
    const fresh = await feed.next(clock.t);
    fake.rateLimit(1_000, 60);
    clock.t = T0 + MINUTE;
    const first = await feed.next(clock.t);
    expect(fake.rateLimited()).toBeGreaterThan(0);
    expect(first.get('BTCUSDT')!.ts).toBe(T0);
    fake.rateLimit(0);
    const asked = fake.requests.length;
    // Inside the 60 s the exchange asked for: nothing is sent, the old snapshot is served.
    const blocked = await feed.next(clock.t);
    expect(fake.requests.length).toBe(asked);
    expect(blocked.get('BTCUSDT')).toEqual(fresh.get('BTCUSDT'));
    time.offset += 30_000; // still inside it on the feed's clock
    await feed.next(clock.t);
    expect(fake.requests.length).toBe(asked);
    time.offset += 30_100; // now past it
    const back = await feed.next(clock.t);
    expect(fake.requests.length).toBeGreaterThan(asked);
    expect(back.get('BTCUSDT')!.ts).toBe(clock.t);
  });

  it('a perpetual whose funding cannot be refreshed is stamped no later than its funding is current', async () => {
    const clock = { t: T0 };
    const { fake, feed } = await open(clock, 800);
    fake.fail('/fapi/v1/premiumIndex');
    clock.t = T0 + 3 * MINUTE;
    const view = await feed.next(clock.t);
    // The book and candles are fresh, but the funding fetched at T0 was due again at T0 + 1 min.
    expect(view.get('BTCUSDT')!.ts).toBe(T0 + MINUTE);
    fake.fail(null);
    clock.t = T0 + 4 * MINUTE;
    expect((await feed.next(clock.t)).get('BTCUSDT')!.ts).toBe(clock.t);
  });

  it('a market load refused at start is asked again, really (ccxt keeps a failed load unless told to reload)', async () => {
    const clock = { t: T0 };
    fake = await startFakeExchange({ seed: 7, now: () => clock.t });
    fake.rateLimit(1, 1);
    const time = steppedTime();
    feed = await createLiveFeed({
      exchangeId: 'binanceusdm',
      symbols: [{ symbol: 'BTCUSDT', kind: 'perp' }],
      baseUrl: fake.url,
      rateLimitMs: 1,
      startupMs: 60_000,
      now: () => clock.t,
      random: () => 0.5,
      elapsed: time,
    });
    expect(fake.requests.filter((r) => r.startsWith('/fapi/v1/exchangeInfo')).length).toBe(2);
    expect(feed.instruments.map((i) => i.symbol)).toEqual(['BTCUSDT']);
  });

  it('a reply from an abandoned cycle that arrives late does not replace newer data', async () => {
    const clock = { t: T0 };
    fake = await startFakeExchange({ seed: 7, now: () => clock.t });
    const exchange = fake;
    feed = await createLiveFeed({
      exchangeId: 'binanceusdm',
      symbols: [{ symbol: 'BTCUSDT', kind: 'perp' }],
      baseUrl: fake.url,
      rateLimitMs: 1, // the fake has no rate to respect (ccxt's throttle is tested in exchange.test.ts)
      budgetMs: 800,
      // Requests outlive the cycle that sent them, so a late answer still lands.
      requestTimeoutMs: 10_000,
      startupMs: 5_000,
      now: () => clock.t,
      random: () => 0.5,
    });
    const release = fake.holdNext('/fapi/v1/depth', 'BTCUSDT');
    clock.t = T0 + MINUTE;
    expect((await feed.next(clock.t)).get('BTCUSDT')!.ts).toBe(T0);
    clock.t = T0 + 2 * MINUTE;
    expect((await feed.next(clock.t)).get('BTCUSDT')!.ts).toBe(clock.t);
    // The abandoned cycle's book (made at T0 + 1 min) is sent now, then a cycle that gets nothing:
    // the late book reaches the feed (loopback) well within that cycle's 800 ms budget.
    exchange.hang();
    release();
    clock.t = T0 + 3 * MINUTE;
    expect((await feed.next(clock.t)).get('BTCUSDT')!.ts).toBe(T0 + 2 * MINUTE);
  });

  it('sends nothing once closed, not even the retry of a request refused before', async () => {
    const clock = { t: T0 };
    // A budget longer than the test: `next()` can then only return once every request and retry of
    // its cycle has ended, so the count taken after it is final (no wait for a retry that may come).
    const { fake, feed } = await open(clock, 120_000);
    fake.rateLimit(1_000, 1);
    clock.t = T0 + MINUTE;
    const pending = feed.next(clock.t);
    // Closed while the refused requests wait out their Retry-After inside the cycle: once the cycle's
    // first requests have all arrived and been refused (none for 100 ms), so a request counted after
    // the close can only be a retry, not a first attempt still on its way (a cold start is slow).
    for (let i = 0; i < 200 && fake.rateLimited() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fake.rateLimited()).toBeGreaterThan(0);
    for (let seen = -1, i = 0; i < 100 && seen !== fake.requests.length; i++) {
      seen = fake.requests.length;
      await new Promise((r) => setTimeout(r, 100));
    }
    await feed.close();
    const asked = fake.requests.length;
    fake.rateLimit(0);
    expect((await pending).get('BTCUSDT')!.ts).toBe(T0);
    await feed.next(clock.t);
    expect(fake.requests.length).toBe(asked);
  });

  it("a book stamped earlier by the exchange than it arrived is as old as the exchange's stamp", async () => {
    // A reply held up on the way (a loaded machine, a slow network) must not pass for fresh data.
    const clock = { t: T0 };
    fake = await startFakeExchange({ seed: 7, now: () => clock.t - 4_000 });
    feed = await createLiveFeed({
      exchangeId: 'binanceusdm',
      symbols: [{ symbol: 'BTCUSDT', kind: 'perp' }],
      baseUrl: fake.url,
      rateLimitMs: 1, // the fake has no rate to respect (ccxt's throttle is tested in exchange.test.ts)
      budgetMs: 3_000,
      startupMs: 5_000,
      now: () => clock.t,
      random: () => 0.5,
    });
    const market = await feed.next(clock.t);
    expect(market.get('BTCUSDT')!.ts).toBe(T0 - 4_000);
  });

  it('returns the last snapshot, with its old stamp, within the budget when the exchange hangs', async () => {
    const clock = { t: T0 };
    const { fake, feed } = await open(clock, 800);
    const fresh = await feed.next(clock.t);
    fake.hang();
    clock.t = T0 + 20_000;
    const started = Date.now();
    const stale = await feed.next(clock.t);
    const waited = Date.now() - started;
    expect(stale.get('BTCUSDT')).toEqual(fresh.get('BTCUSDT'));
    expect(stale.get('BTCUSDT')!.ts).toBe(T0);
    // Bounded by the budget (plus timer slack), not by the hung requests.
    expect(waited).toBeLessThan(5_000);
    fake.resume();
    clock.t = T0 + 40_000;
    const back = await feed.next(clock.t);
    expect(back.get('BTCUSDT')!.ts).toBe(clock.t);
  });

  it('fetches the history the strategies declare, and refuses to start with less (issue 19)', async () => {
    const clock = { t: T0 };
    fake = await startFakeExchange({ seed: 7, now: () => clock.t });
    const options = {
      exchangeId: 'binanceusdm',
      symbols: [{ symbol: 'BTCUSDT', kind: 'perp' as const }],
      baseUrl: fake.url,
      rateLimitMs: 1,
      budgetMs: 3_000,
      startupMs: 5_000,
      now: () => clock.t,
      random: () => 0.5,
    };
    feed = await createLiveFeed({ ...options, historyLength: 494, requiredHistory: 494 });
    const bars = (await feed.next(clock.t)).get('BTCUSDT')!.bars;
    expect(bars.length).toBe(494);
    // Candles as the exchange sent them: one minute apart, high and low around open and close.
    expect(bars.time[493]! - bars.time[0]!).toBe(493 * MINUTE);
    for (let i = 0; i < bars.length; i++) {
      expect(bars.high[i]).toBeGreaterThanOrEqual(Math.max(bars.open[i]!, bars.close[i]!));
      expect(bars.low[i]).toBeLessThanOrEqual(Math.min(bars.open[i]!, bars.close[i]!));
    }
    await feed.close();
    feed = undefined;
    await fake.stop();
    // An exchange that has only the last 100 minutes (a new listing: 99 closed and the one still
    // forming, which is no bar yet) cannot serve a 494-bar lookback.
    const minute = Math.floor(T0 / MINUTE) * MINUTE;
    fake = await startFakeExchange({
      seed: 7,
      now: () => clock.t,
      missing: { BTCUSDT: [[minute - 1_000 * MINUTE, minute - 99 * MINUTE]] },
    });
    await expect(
      createLiveFeed({ ...options, baseUrl: fake.url, historyLength: 494, requiredHistory: 494 }),
    ).rejects.toThrow(
      /too little history from binanceusdm .*: the strategies need 494 one-minute candles; BTCUSDT has 99/,
    );
  });
});

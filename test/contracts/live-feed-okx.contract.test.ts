/**
 * The MarketFeed contract (./market-feed.contract.ts) on the live feed
 * (src/adapters/market-data/live/live-feed.ts) reading the loopback fake exchange's OKX v5
 * market data (test/support/fake-exchange/), one minute of the fake's clock per step.
 */
import { describe, expect, it } from 'vitest';
import { createLiveFeed } from '../../src/adapters/market-data/live/index.js';
import { OKX_DIALECT } from '../support/fake-exchange/dialects/okx/index.js';
import { instrumentById } from '../support/fake-exchange/market-data.js';
import { startFakeExchange } from '../support/fake-exchange/server.js';
import { marketFeedContract } from './market-feed.contract.js';

/** Half a minute into a minute: the minute's candle is still open, the one before it closed. */
const T0 = Date.UTC(2026, 0, 5, 12, 0, 30);
const MINUTE = 60_000;

marketFeedContract('live feed on the OKX v5 fake', {
  symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'],
  refusesUnknownSymbols: true,
  async open(symbols) {
    const clock = { t: T0 };
    const fake = await startFakeExchange({ seed: 7, now: () => clock.t, dialect: OKX_DIALECT });
    try {
      const feed = await createLiveFeed({
        exchangeId: 'okx',
        symbols: symbols.map((symbol) => ({ symbol })),
        baseUrl: fake.url,
        rateLimitMs: 1, // the fake has no rate to respect
        budgetMs: 3_000,
        startupMs: 5_000,
        historyLength: 10,
        now: () => clock.t,
        random: () => 0.5,
      });
      return {
        feed,
        tick: (k) => (clock.t = T0 + k * MINUTE),
        requests: () => fake.calls.length,
        close: () => fake.stop(),
      };
    } catch (err) {
      await fake.stop();
      throw err;
    }
  },
});

describe("live feed on OKX: quantities in the base, not in OKX's contracts", () => {
  it("the book holds the engine's sizes in BTC although OKX serves them in 0.01 BTC contracts, and the lot is in BTC", async () => {
    const clock = { t: T0 };
    const fake = await startFakeExchange({ seed: 7, now: () => clock.t, dialect: OKX_DIALECT });
    try {
      const feed = await createLiveFeed({
        exchangeId: 'okx',
        symbols: [{ symbol: 'BTCUSDT' }],
        baseUrl: fake.url,
        rateLimitMs: 1,
        budgetMs: 3_000,
        startupMs: 5_000,
        historyLength: 10,
        now: () => clock.t,
        random: () => 0.5,
      });
      try {
        const view = await feed.next(clock.t);
        const snap = view.get('BTCUSDT')!;
        const engine = fake.venue.book(instrumentById('BTCUSDT')!);
        expect(snap.bids.slice(0, 3).map((l) => [l.price, l.qty])).toEqual(engine.bids.slice(0, 3));
        expect(snap.asks.slice(0, 3).map((l) => [l.price, l.qty])).toEqual(engine.asks.slice(0, 3));
        expect(feed.instruments.find((i) => i.symbol === 'BTCUSDT')?.lotSize).toBe(0.001);
      } finally {
        await feed.close();
      }
    } finally {
      await fake.stop();
    }
  });
});

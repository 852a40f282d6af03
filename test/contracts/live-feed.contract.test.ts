/**
 * The MarketFeed contract (./market-feed.contract.ts) on the live feed
 * (src/adapters/market-data/live/live-feed.ts) reading the loopback fake exchange's market data in
 * every dialect it speaks (test/support/fake-exchange/dialect-registry.ts), one minute of the fake's
 * clock per step; and, per exchange, that the book and the lot are in the base whatever unit the
 * exchange serves them in (OKX's swaps are 0.01 BTC contracts).
 */
import { describe, expect, it } from 'vitest';
import { createLiveFeed } from '../../src/adapters/market-data/live/index.js';
import type { Dialect } from '../support/fake-exchange/dialect.js';
import { fakeDialects } from '../support/fake-exchange/dialect-registry.js';
import { instrumentById } from '../support/fake-exchange/market-data.js';
import { startFakeExchange } from '../support/fake-exchange/server.js';
import { marketFeedContract } from './market-feed.contract.js';

/** Half a minute into a minute: the minute's candle is still open, the one before it closed. */
const T0 = Date.UTC(2026, 0, 5, 12, 0, 30);
const MINUTE = 60_000;

/** A live feed of `symbols` on a fake speaking `dialect`, its clock at `clock.t`. */
async function openFeed(dialect: Dialect, symbols: readonly string[], clock: { t: number }) {
  const fake = await startFakeExchange({ seed: 7, now: () => clock.t, dialect });
  try {
    const feed = await createLiveFeed({
      exchangeId: dialect.id,
      symbols: symbols.map((symbol) => ({ symbol })),
      baseUrl: fake.url,
      rateLimitMs: 1, // the fake has no rate to respect
      budgetMs: 3_000,
      startupMs: 5_000,
      historyLength: 10,
      now: () => clock.t,
      random: () => 0.5,
    });
    return { fake, feed };
  } catch (err) {
    await fake.stop();
    throw err;
  }
}

for (const dialect of fakeDialects()) {
  const name = dialect.venueContract.name.replace(/^live venue/, 'live feed');

  marketFeedContract(name, {
    symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'],
    refusesUnknownSymbols: true,
    async open(symbols) {
      const clock = { t: T0 };
      const { fake, feed } = await openFeed(dialect, symbols, clock);
      return {
        feed,
        tick: (k) => (clock.t = T0 + k * MINUTE),
        requests: () => fake.calls.length,
        close: () => fake.stop(),
      };
    },
  });

  describe(`${name}: quantities in the base`, () => {
    it("the book holds the engine's sizes in BTC whatever unit the exchange serves them in, and the lot is in BTC", async () => {
      const clock = { t: T0 };
      const { fake, feed } = await openFeed(dialect, ['BTCUSDT'], clock);
      try {
        const view = await feed.next(clock.t);
        const snap = view.get('BTCUSDT')!;
        const engine = fake.venue.book(instrumentById('BTCUSDT')!);
        expect(snap.bids.slice(0, 3).map((l) => [l.price, l.qty])).toEqual(engine.bids.slice(0, 3));
        expect(snap.asks.slice(0, 3).map((l) => [l.price, l.qty])).toEqual(engine.asks.slice(0, 3));
        expect(feed.instruments.find((i) => i.symbol === 'BTCUSDT')?.lotSize).toBe(0.001);
      } finally {
        await feed.close();
        await fake.stop();
      }
    });
  });
}

/**
 * The MarketFeed contract (./market-feed.contract.ts) on the live feed
 * (src/adapters/market-data/live/live-feed.ts) reading the loopback fake exchange's Bitget V2
 * market data (test/support/fake-exchange/), one minute of the fake's clock per step.
 */
import { createLiveFeed } from '../../src/adapters/market-data/live/index.js';
import { BITGET_DIALECT } from '../support/fake-exchange/dialects/bitget/index.js';
import { startFakeExchange } from '../support/fake-exchange/server.js';
import { marketFeedContract } from './market-feed.contract.js';

/** Half a minute into a minute: the minute's candle is still open, the one before it closed. */
const T0 = Date.UTC(2026, 0, 5, 12, 0, 30);
const MINUTE = 60_000;

marketFeedContract('live feed on the Bitget V2 fake', {
  symbols: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'],
  refusesUnknownSymbols: true,
  async open(symbols) {
    const clock = { t: T0 };
    const fake = await startFakeExchange({ seed: 7, now: () => clock.t, dialect: BITGET_DIALECT });
    try {
      const feed = await createLiveFeed({
        exchangeId: 'bitget',
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

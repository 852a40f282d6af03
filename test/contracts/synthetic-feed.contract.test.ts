/**
 * The MarketFeed contract (./market-feed.contract.ts) on the seeded synthetic feed
 * (src/adapters/market-data/synthetic-feed.ts): one market minute per step from its epoch, asked for
 * at each bar's close. It makes any symbol up by design; MARKET_DATA=synthetic's configuration is what
 * refuses one it does not know (src/runtime/trading/trading-config.ts).
 */
import { createSyntheticFeed } from '../../src/adapters/market-data/index.js';
import type { Instrument } from '../../src/domain/market.js';
import { marketFeedContract } from './market-feed.contract.js';

const EPOCH = Date.UTC(2024, 0, 1);
const STEP = 60_000;
const INSTRUMENTS: Record<string, Instrument> = {
  BTCUSDT: { symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 },
  ETHUSDT: { symbol: 'ETHUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.01, minNotional: 5 },
  SOLUSDT: { symbol: 'SOLUSDT', kind: 'spot', lotSize: 0.01, tickSize: 0.01, minNotional: 5 },
};

marketFeedContract('synthetic feed', {
  symbols: Object.keys(INSTRUMENTS),
  refusesUnknownSymbols: false,
  async open(symbols) {
    const feed = createSyntheticFeed({
      instruments: symbols.map((s) => INSTRUMENTS[s]!),
      seed: 'contract',
      stepMs: STEP,
      historyLength: 10,
      epoch: EPOCH,
    });
    return {
      feed,
      // The k-th step's bar opens at the epoch plus k steps; it is asked for when that bar closes.
      tick: (k) => EPOCH + (k + 1) * STEP,
      async close() {},
    };
  },
});

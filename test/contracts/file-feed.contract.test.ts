/**
 * The MarketFeed contract (./market-feed.contract.ts) on the file replay
 * (src/adapters/market-data/file/file-feed.ts) of the fixture data set test/fixtures/market-data/good
 * (ten one-minute candles of BTCUSDT, a perpetual with funding, and ETHUSDT, spot, as its manifest
 * says), each step asked for at the close of the candle it replays.
 */
import { fileURLToPath } from 'node:url';
import { createFileFeed, readManifest } from '../../src/adapters/market-data/file/index.js';
import type { Instrument } from '../../src/domain/market.js';
import { marketFeedContract } from './market-feed.contract.js';

const DIR = fileURLToPath(new URL('../fixtures/market-data/good', import.meta.url));

marketFeedContract('file feed', {
  symbols: ['BTCUSDT', 'ETHUSDT'],
  refusesUnknownSymbols: true,
  async open(symbols) {
    const manifest = await readManifest(DIR);
    const known = new Map((manifest?.instruments ?? []).map((i) => [i.symbol, i]));
    const instruments: Instrument[] = symbols.map(
      (symbol) => known.get(symbol) ?? { symbol, kind: 'spot', lotSize: 0.001, tickSize: 0.01, minNotional: 5 },
    );
    const feed = await createFileFeed({ dir: DIR, instruments, historyLength: 3 });
    return {
      feed,
      // Each step replays the next candle: it is asked for when that candle has closed.
      tick: () => (feed.nextCandleTime ?? feed.range.last) + feed.range.stepMs,
      async close() {},
    };
  },
});

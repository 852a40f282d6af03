/**
 * The sample data set that ships in data/sample/, so a first `tcs simulate --data data/sample` works
 * without a network: two days of 1-minute candles and 8-hourly funding for BTCUSDT and ETHUSDT,
 * made by the project's own synthetic market (src/adapters/market-data/synthetic-feed.ts: volatility
 * clusters, jumps, BTC–ETH correlation 0.8, funding that persists for days) from a fixed seed, so it
 * has the shape of real data and the same bytes on every run. It is made up: the prices are not
 * history. test/cli/sample-data.test.ts holds the committed files to what this produces.
 */
import { createSyntheticFeed } from '../src/adapters/market-data/synthetic-feed.js';
import { SYNTHETIC_EPOCH } from '../src/adapters/market-data/symbol-path.js';
import { instrumentOf } from '../src/domain/instruments.js';

export const SAMPLE_DIR = 'data/sample';
const SEED = 'tcs-sample-data';
const SYMBOLS = ['BTCUSDT', 'ETHUSDT'] as const;
const DAYS = 2;
const MINUTE = 60_000;
const FUNDING_INTERVAL = 8 * 3_600_000;
/** A few hundred KB: two symbols × two days of minutes keeps a clone small and a replay a few seconds long. */
const CANDLES = DAYS * 1_440;

/** The sample's files, by path relative to SAMPLE_DIR, as they are written. */
export async function sampleDataFiles(): Promise<Map<string, string>> {
  const instruments = SYMBOLS.map((symbol) => instrumentOf(symbol, 'perp'));
  const feed = createSyntheticFeed({ instruments, seed: SEED, fundingIntervalMs: FUNDING_INTERVAL });
  const candles = new Map<string, string[]>(SYMBOLS.map((s) => [s, ['timestamp,open,high,low,close,volume']]));
  const funding = new Map<string, string[]>(SYMBOLS.map((s) => [s, ['timestamp,rate']]));
  for (let i = 0; i < CANDLES; i++) {
    const openTime = SYNTHETIC_EPOCH + i * MINUTE;
    // Stamped at the bar's close, as a live cycle would see it.
    const view = await feed.next(openTime + MINUTE);
    for (const symbol of SYMBOLS) {
      const snapshot = view.get(symbol)!;
      const bars = snapshot.bars;
      const last = bars.length - 1;
      if (bars.time[last] !== openTime) throw new Error(`${symbol}: bar ${i} opens at ${bars.time[last]}`);
      candles
        .get(symbol)!
        .push(
          [openTime, bars.open[last], bars.high[last], bars.low[last], bars.close[last], bars.volume[last]].join(','),
        );
      // A settlement at the start (the rate the market opened with) and at every 8-hour mark after.
      if (i === 0) funding.get(symbol)!.push(`${openTime},${snapshot.fundingRate}`);
      if ((openTime + MINUTE) % FUNDING_INTERVAL === 0)
        funding.get(symbol)!.push(`${openTime + MINUTE},${snapshot.fundingRate}`);
    }
  }
  const files = new Map<string, string>();
  for (const symbol of SYMBOLS) {
    files.set(`candles/${symbol}.csv`, `${candles.get(symbol)!.join('\n')}\n`);
    files.set(`funding/${symbol}.csv`, `${funding.get(symbol)!.join('\n')}\n`);
  }
  const manifest = {
    format: 1,
    exchange: 'synthetic',
    timeframe: '1m',
    instruments: Object.fromEntries(
      instruments.map(({ symbol, kind, lotSize, tickSize, minNotional }) => [
        symbol,
        { kind, lotSize, tickSize, minNotional },
      ]),
    ),
    from: new Date(SYNTHETIC_EPOCH).toISOString(),
    to: new Date(SYNTHETIC_EPOCH + CANDLES * MINUTE).toISOString(),
  };
  files.set('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  return files;
}

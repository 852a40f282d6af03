/**
 * Whole-directory rules no single file can check: one timeframe for all symbols, one format per
 * symbol, no stray names, no funding without candles or for a spot instrument, and a manifest
 * whose symbols all have candles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadDataDir } from '../../../../src/adapters/market-data/file/index.js';
import { CANDLE_HEADER, FUNDING_HEADER, MIN, T0, candleParquet, candles, csv, tempDirs } from './data-dirs.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const btc = csv(CANDLE_HEADER, candles(4));
const manifest = (extra: object) =>
  JSON.stringify({
    format: 1,
    timeframe: '1m',
    instruments: { BTCUSDT: { kind: 'spot', lotSize: 0.001, tickSize: 0.1, minNotional: 5 } },
    ...extra,
  });

describe('data directory', () => {
  it('loads every symbol, CSV and Parquet mixed, sorted by symbol, ignoring dot files', async () => {
    const dir = dirs.make({
      'candles/BTCUSDT.csv': btc,
      'candles/ETHUSDT.parquet': candleParquet(candles(4)),
      'candles/.SOLUSDT.csv.partial': 'half a download',
      'funding/BTCUSDT.csv': csv(FUNDING_HEADER, [[T0, 0.0001]]),
    });
    const data = await loadDataDir(dir);
    expect(data.timeframe).toBe('1m');
    expect(data.symbols.map((s) => [s.symbol, s.candleFile, s.fundingFile])).toEqual([
      ['BTCUSDT', 'candles/BTCUSDT.csv', 'funding/BTCUSDT.csv'],
      ['ETHUSDT', 'candles/ETHUSDT.parquet', undefined],
    ]);
  });

  it('refuses what only the directory as a whole shows, naming the file', async () => {
    const cases: [Record<string, string | ArrayBuffer>, RegExp][] = [
      [{}, /^candles\/: missing/],
      [
        { 'candles/BTCUSDT.csv': btc, 'candles/BTCUSDT.parquet': candleParquet(candles(4)) },
        /^candles\/BTCUSDT\.parquet: BTCUSDT is also in candles\/BTCUSDT\.csv/,
      ],
      [{ 'candles/btcusdt.csv': btc }, /^candles\/btcusdt\.csv: not a data file/],
      [
        { 'candles/BTCUSDT.csv': btc, 'funding/ETHUSDT.csv': csv(FUNDING_HEADER, [[T0, 0]]) },
        /^funding\/ETHUSDT\.csv: funding without candles/,
      ],
      [
        { 'candles/BTCUSDT.csv': btc, 'candles/ETHUSDT.csv': csv(CANDLE_HEADER, candles(4, T0, 100, 1, 5 * MIN)) },
        /^candles\/ETHUSDT\.csv: timeframe 5m differs from 1m of candles\/BTCUSDT\.csv/,
      ],
      [
        {
          'manifest.json': manifest({}),
          'candles/BTCUSDT.csv': btc,
          'funding/BTCUSDT.csv': csv(FUNDING_HEADER, [[T0, 0]]),
        },
        /^funding\/BTCUSDT\.csv: BTCUSDT is spot in manifest\.json/,
      ],
      [
        { 'manifest.json': manifest({}), 'candles/ETHUSDT.csv': btc },
        /^manifest\.json: lists BTCUSDT, but candles\/BTCUSDT\.csv or \.parquet is missing/,
      ],
      [
        { 'manifest.json': manifest({ timeframe: '5m' }), 'candles/BTCUSDT.csv': btc },
        /^candles\/BTCUSDT\.csv line 3: misaligned: expected timestamp 1704067500000/,
      ],
      [
        { 'manifest.json': manifest({ format: 2 }), 'candles/BTCUSDT.csv': btc },
        /^manifest\.json: "format" must be 1, got 2/,
      ],
      [{ 'manifest.json': '{"format":1,', 'candles/BTCUSDT.csv': btc }, /^manifest\.json: is not JSON/],
      [
        {
          'manifest.json': manifest({
            instruments: { BTCUSDT: { kind: 'perp', lotSize: 0, tickSize: 0.1, minNotional: 5 } },
          }),
          'candles/BTCUSDT.csv': btc,
        },
        /^manifest\.json: instruments\.BTCUSDT\.lotSize must be a positive number, got 0/,
      ],
    ];
    for (const [files, message] of cases) {
      await expect(loadDataDir(dirs.make(files)), String(message)).rejects.toThrow(message);
    }
  });
});

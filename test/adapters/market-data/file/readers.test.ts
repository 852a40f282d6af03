/**
 * The CSV and Parquet readers: every error kind of the format, each naming the file and the line
 * (CSV, header = line 1) or row (Parquet, 1 = first row) and what is wrong; valid files read back
 * exactly what was written.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readCandlesCsv, readFundingCsv } from '../../../../src/adapters/market-data/file/csv-reader.js';
import { DataFileError } from '../../../../src/adapters/market-data/file/index.js';
import { readCandlesParquet, readFundingParquet } from '../../../../src/adapters/market-data/file/parquet-reader.js';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { BasicType } from 'hyparquet-writer';
import {
  CANDLE_HEADER,
  FUNDING_HEADER,
  MIN,
  T0,
  candleParquet,
  candles,
  csv,
  fundingParquet,
  tempDirs,
} from './data-dirs.js';
import type { CandleRow } from './data-dirs.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

async function csvCandles(text: string, stepMs?: number) {
  const dir = dirs.make({ 'candles/BTCUSDT.csv': text });
  return readCandlesCsv(join(dir, 'candles/BTCUSDT.csv'), 'candles/BTCUSDT.csv', stepMs);
}
async function pqCandles(buffer: ArrayBuffer, stepMs?: number) {
  const dir = dirs.make({ 'candles/BTCUSDT.parquet': buffer });
  return readCandlesParquet(join(dir, 'candles/BTCUSDT.parquet'), 'candles/BTCUSDT.parquet', stepMs);
}
async function failure(promise: Promise<unknown>): Promise<DataFileError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DataFileError);
  return err as DataFileError;
}

/** Row mutations that break one rule, applied to the 4th data row (CSV line 5, Parquet row 4). */
const rowCases: { kind: string; mutate: (rows: CandleRow[]) => void; message: RegExp }[] = [
  {
    kind: 'gap',
    mutate: (r) => r.splice(3, 1),
    message:
      /gap: expected timestamp 1704067380000 \(2024-01-01T00:03:00\.000Z\), got 1704067440000 \(2024-01-01T00:04:00\.000Z\) \(1 candle missing\)/,
  },
  {
    kind: 'duplicate',
    mutate: (r) => (r[3]![0] = r[2]![0]),
    message: /duplicate: timestamp 1704067320000 \(2024-01-01T00:02:00\.000Z\) repeats/,
  },
  {
    kind: 'unsorted',
    mutate: (r) => (r[3]![0] = r[1]![0]),
    message: /unsorted: timestamp 1704067260000 .* before the previous row's 1704067320000/,
  },
  { kind: 'misaligned', mutate: (r) => (r[3]![0] += 1000), message: /misaligned: expected timestamp 1704067380000/ },
  { kind: 'price <= 0', mutate: (r) => (r[3]![4] = 0), message: /price <= 0: close is 0/ },
  { kind: 'high < max(open, close)', mutate: (r) => (r[3]![2] = r[3]![4] - 0.5), message: /high < max\(open, close\)/ },
  { kind: 'low > min(open, close)', mutate: (r) => (r[3]![3] = r[3]![1] + 0.5), message: /low > min\(open, close\)/ },
  { kind: 'volume < 0', mutate: (r) => (r[3]![5] = -1), message: /volume < 0: -1/ },
];

describe('candle CSV', () => {
  it('reads valid rows back exactly, with the timeframe inferred from the first two rows', async () => {
    const rows = candles(5, T0, 42_000.1, 0.7, 5 * MIN);
    const series = await csvCandles(csv(CANDLE_HEADER, rows).replace(/\n/g, '\r\n'));
    expect(series).toMatchObject({ start: T0, stepMs: 5 * MIN, count: 5 });
    expect(Array.from(series.close)).toEqual(rows.map((r) => r[4]));
    expect(Array.from(series.high)).toEqual(rows.map((r) => r[2]));
    expect(Array.from(series.volume)).toEqual(rows.map((r) => r[5]));
  });

  it('parses decimals exactly as Number() does, exponents and long digits included', async () => {
    const fields = ['0.1', '1e2', '123456789.123456789', '0.30000000000000004', '2.5E-3', '.5', '7.'];
    const text = csv(
      CANDLE_HEADER,
      fields.map((f, i) => [T0 + i * MIN, 1, 1e9, 1e-9, 1, f]),
    );
    const series = await csvCandles(text);
    expect(Array.from(series.volume)).toEqual(fields.map(Number));
  });

  for (const c of rowCases) {
    it(`refuses ${c.kind}, naming the file and line`, async () => {
      const rows = candles(6);
      c.mutate(rows);
      const err = await failure(csvCandles(csv(CANDLE_HEADER, rows)));
      expect(err.message).toMatch(/^candles\/BTCUSDT\.csv line 5: /);
      expect(err.message).toMatch(c.message);
    });
  }

  it('refuses a wrong header, a wrong column count, non-numeric fields, an inner empty line and an empty file', async () => {
    const good = csv(CANDLE_HEADER, candles(4));
    const cases: [string, RegExp][] = [
      [
        good.replace(CANDLE_HEADER, 'time,open,high,low,close,volume'),
        /line 1: header must be "timestamp,open,high,low,close,volume", got "time,/,
      ],
      [good.replace(/\n(\d+,[^\n]*)\n/, (_, row: string) => `\n${row},7\n`), /line 2: expected 6 columns .*got 7/],
      [good.replace(/,12\n/, '\n'), /line 4: expected 6 columns .*got 5/],
      [good.replace(/(\n\d+),101,/, '$1,abc,'), /line 3: non-numeric open: "abc"/],
      [good.replace(/(\n\d+),101,/, '$1,,'), /line 3: non-numeric open: ""/],
      [good.replace(/(\n\d+),101,/, '$1,0x10,'), /line 3: non-numeric open: "0x10"/],
      [
        good.replace(/\n1704067260000,/, '\n1704067260000.5,'),
        /line 3: non-numeric timestamp: "1704067260000\.5" \(whole epoch milliseconds expected\)/,
      ],
      [good.replace(/\n(1704067260000)/, '\n\n$1'), /line 3: empty line/],
      ['', /line 1: header must be .*got an empty file/],
      [CANDLE_HEADER + '\n', /no candles/],
      [
        csv(CANDLE_HEADER, [candles(1)[0]!, candles(2, T0 + 7 * MIN)[0]!]),
        /line 3: the first two rows are 420000 ms apart, which is not a timeframe/,
      ],
    ];
    for (const [text, message] of cases) {
      const err = await failure(csvCandles(text));
      expect(err.message, text.slice(0, 120)).toMatch(/^candles\/BTCUSDT\.csv[ :]/);
      expect(err.message).toMatch(message);
    }
  });

  it('accepts trailing blank lines and a byte-order mark', async () => {
    const series = await csvCandles('\uFEFF' + csv(CANDLE_HEADER, candles(3)) + '\n\n');
    expect(series.count).toBe(3);
  });

  it('holds rows to the manifest timeframe when given, from the second row on', async () => {
    const err = await failure(csvCandles(csv(CANDLE_HEADER, candles(3, T0, 100, 1, 5 * MIN)), MIN));
    expect(err.message).toMatch(
      /line 3: gap: expected timestamp 1704067260000 \(2024-01-01T00:01:00\.000Z\), got 1704067500000/,
    );
  });
});

describe('candle Parquet', () => {
  it('reads INT64 and TIMESTAMP(millis) timestamps back exactly', async () => {
    const rows = candles(4, T0, 3000.01, 0.01);
    for (const type of ['INT64', 'TIMESTAMP'] as const) {
      const series = await pqCandles(candleParquet(rows, type));
      expect(series).toMatchObject({ start: T0, stepMs: MIN, count: 4 });
      expect(Array.from(series.close)).toEqual(rows.map((r) => r[4]));
    }
  });

  for (const c of rowCases) {
    it(`refuses ${c.kind}, naming the file and row`, async () => {
      const rows = candles(6);
      c.mutate(rows);
      const err = await failure(pqCandles(candleParquet(rows)));
      expect(err.message).toMatch(/^candles\/BTCUSDT\.parquet row 4: /);
      expect(err.message).toMatch(c.message);
    });
  }

  it('refuses NaN, a null, a missing column, a wrong type and a file that is not Parquet', async () => {
    const rows = candles(3);
    const nan = rows.map((r) => [...r] as CandleRow);
    nan[1]![5] = NaN;
    expect((await failure(pqCandles(candleParquet(nan)))).message).toMatch(/row 2: non-numeric volume: NaN/);

    const columns = (override: Record<string, unknown>) =>
      parquetWriteBuffer({
        columnData: [
          { name: 'timestamp', data: rows.map((r) => BigInt(r[0])) as unknown[], type: 'INT64' as BasicType },
          ...['open', 'high', 'low', 'close', 'volume'].map((name, k) => ({
            name,
            data: rows.map((r) => r[k + 1]!) as unknown[],
            type: 'DOUBLE' as BasicType,
          })),
        ].map((c) => ({ ...c, ...(override[c.name] as object | undefined) })),
      });
    expect((await failure(pqCandles(columns({ low: { data: [98, null, 100] } })))).message).toMatch(
      /row 2: low is null/,
    );
    const missing = parquetWriteBuffer({
      columnData: [
        { name: 'timestamp', data: rows.map((r) => BigInt(r[0])), type: 'INT64' },
        { name: 'close', data: rows.map((r) => r[4]), type: 'DOUBLE' },
      ],
    });
    expect((await failure(pqCandles(missing))).message).toMatch(/^candles\/BTCUSDT\.parquet: missing column "open"/);
    const wrongType = columns({ close: { data: rows.map((r) => String(r[4])), type: 'STRING' } });
    expect((await failure(pqCandles(wrongType))).message).toMatch(/column "close" is BYTE_ARRAY UTF8.*expected DOUBLE/);
    const seconds = columns({ timestamp: { data: rows.map((r) => r[0] / 1000), type: 'INT32' } });
    expect((await failure(pqCandles(seconds))).message).toMatch(
      /column "timestamp" is INT32, expected INT64 epoch milliseconds/,
    );
    const notParquet = new TextEncoder().encode(csv(CANDLE_HEADER, rows)).buffer as ArrayBuffer;
    expect((await failure(pqCandles(notParquet))).message).toMatch(/not a readable Parquet file/);
  });
});

describe('funding', () => {
  const H8 = 8 * 3_600_000;
  const rows: [number, number][] = [
    [T0, 0.0001],
    [T0 + H8, -0.00005],
    [T0 + 2 * H8, 0.0002],
  ];

  it('reads CSV and Parquet alike', async () => {
    const dir = dirs.make({ 'funding/A.csv': csv(FUNDING_HEADER, rows), 'funding/A.parquet': fundingParquet(rows) });
    const a = await readFundingCsv(join(dir, 'funding/A.csv'), 'funding/A.csv');
    const b = await readFundingParquet(join(dir, 'funding/A.parquet'), 'funding/A.parquet');
    for (const s of [a, b]) {
      expect(Array.from(s.ts)).toEqual(rows.map((r) => r[0]));
      expect(Array.from(s.rate)).toEqual(rows.map((r) => r[1]));
    }
  });

  it('refuses duplicates, unsorted rows, a wrong header, non-numeric and out-of-range rates, naming file and line or row', async () => {
    const cases: [[number, number][], RegExp][] = [
      [[rows[0]!, rows[0]!], /duplicate: timestamp 1704067200000 \(2024-01-01T00:00:00\.000Z\)/],
      [[rows[1]!, rows[0]!], /unsorted: timestamp 1704067200000 .* before the previous row's 1704096000000/],
      [[rows[0]!, [T0 + H8, 1.5]], /rate 1\.5 is not a fraction per interval/],
    ];
    for (const [bad, message] of cases) {
      const dir = dirs.make({ 'funding/A.csv': csv(FUNDING_HEADER, bad), 'funding/A.parquet': fundingParquet(bad) });
      const c = await failure(readFundingCsv(join(dir, 'funding/A.csv'), 'funding/A.csv'));
      expect(c.message).toMatch(/^funding\/A\.csv line 3: /);
      expect(c.message).toMatch(message);
      const p = await failure(readFundingParquet(join(dir, 'funding/A.parquet'), 'funding/A.parquet'));
      expect(p.message).toMatch(/^funding\/A\.parquet row 2: /);
      expect(p.message).toMatch(message);
    }
    const dir = dirs.make({
      'funding/B.csv': 'timestamp,fundingRate\n',
      'funding/C.csv': csv(FUNDING_HEADER, [[T0, '1%']]),
    });
    expect((await failure(readFundingCsv(join(dir, 'funding/B.csv'), 'funding/B.csv'))).message).toMatch(
      /funding\/B\.csv line 1: header must be "timestamp,rate"/,
    );
    expect((await failure(readFundingCsv(join(dir, 'funding/C.csv'), 'funding/C.csv'))).message).toMatch(
      /funding\/C\.csv line 2: non-numeric rate: "1%"/,
    );
  });
});

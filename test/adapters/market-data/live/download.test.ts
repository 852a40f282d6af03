/**
 * `tcs data download` against the local fake Binance USD-M exchange: files in the data directory
 * format holding exactly the exchange's candles and funding, a maintenance gap filled flat and listed
 * in the manifest, a resumed download (cut mid-file, a partial last line) equal to an uninterrupted
 * one, and bad arguments refused with a message naming them.
 */
import { mkdtempSync, readFileSync, rmSync, truncateSync, appendFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadMarketData } from '../../../../src/adapters/market-data/download/download.js';
import { DATA_DOWNLOAD_HELP, parseDataDownloadArgs, runDataDownload } from '../../../../src/runtime/data-download.js';
import { ConfigError } from '../../../../src/runtime/config.js';
import { startFakeExchange } from '../../../support/fake-exchange/server.js';
import type { FakeExchange } from '../../../support/fake-exchange/server.js';
import {
  candleAt,
  FUNDING_INTERVAL,
  fundingAt,
  instrumentById,
  MINUTE,
} from '../../../support/fake-exchange/market-data.js';

const FROM = Date.UTC(2025, 0, 1);
const TO = FROM + 2_500 * MINUTE; // three pages of 1 000
const GAP: [number, number] = [FROM + 1_200 * MINUTE, FROM + 1_230 * MINUTE];
const quiet = { update() {}, finish() {} };
let fake: FakeExchange;
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeExchange({ seed: 3, missing: { BTCUSDT: [GAP] } });
});
afterAll(async () => {
  await fake.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** ccxt's throttle interval here: the fake has no rate to respect (the throttle: exchange.test.ts). */
const NO_THROTTLE = 1;

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-download-'));
  dirs.push(dir);
  return dir;
}

const download = (out: string) =>
  downloadMarketData({
    exchange: 'binanceusdm',
    symbols: ['BTCUSDT', 'SOLUSDT'],
    timeframe: '1m',
    from: FROM,
    to: TO,
    out,
    baseUrl: fake.url,
    rateLimitMs: NO_THROTTLE,
    progress: quiet,
  });

const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');

describe('data download (fake binanceusdm)', () => {
  let full: string;

  it('writes the exchange candles and funding in the data directory format', async () => {
    full = tempDir();
    const result = await download(full);
    expect(result.candles).toEqual({ BTCUSDT: 2_500, SOLUSDT: 2_500 });

    const lines = read(full, 'candles/BTCUSDT.csv').trimEnd().split('\n');
    expect(lines[0]).toBe('timestamp,open,high,low,close,volume');
    expect(lines).toHaveLength(2_501);
    const btc = instrumentById('BTCUSDT')!;
    const rows = lines.slice(1).map((l) => l.split(',').map(Number));
    rows.forEach((row, i) => expect(row[0]).toBe(FROM + i * MINUTE));
    for (const i of [0, 999, 1_000, 1_199, 1_230, 2_499]) {
      const c = candleAt(3, btc, FROM + i * MINUTE);
      expect(rows[i]).toEqual([c.openTime, c.open, c.high, c.low, c.close, c.volume]);
    }
    // The maintenance gap: flat at the previous close, no volume, and said so in the manifest.
    const before = candleAt(3, btc, GAP[0] - MINUTE).close;
    for (let i = 1_200; i < 1_230; i++) expect(rows[i]!.slice(1)).toEqual([before, before, before, before, 0]);

    const manifest = JSON.parse(read(full, 'manifest.json'));
    expect(manifest).toEqual({
      format: 1,
      exchange: 'binanceusdm',
      timeframe: '1m',
      from: new Date(FROM).toISOString(),
      to: new Date(TO).toISOString(),
      instruments: {
        BTCUSDT: { kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 100, ccxtSymbol: 'BTC/USDT:USDT' },
        SOLUSDT: { kind: 'perp', lotSize: 1, tickSize: 0.01, minNotional: 5, ccxtSymbol: 'SOL/USDT:USDT' },
      },
      filledGaps: {
        BTCUSDT: [{ from: new Date(GAP[0]).toISOString(), to: new Date(GAP[1]).toISOString(), candles: 30 }],
        SOLUSDT: [],
      },
    });

    const funding = read(full, 'funding/SOLUSDT.csv').trimEnd().split('\n');
    const sol = instrumentById('SOLUSDT')!;
    const settlements = [];
    for (let t = Math.ceil(FROM / FUNDING_INTERVAL) * FUNDING_INTERVAL; t < TO; t += FUNDING_INTERVAL)
      settlements.push(t);
    expect(funding).toEqual(['timestamp,rate', ...settlements.map((t) => `${t},${fundingAt(3, sol, t)}`)]);
  });

  it('resumes a cut download to the same files as an uninterrupted one', async () => {
    const cut = tempDir();
    await download(cut);
    // Interrupted mid-page, mid-line, before the gap; funding cut back to its header and one row.
    const btc = join(cut, 'candles/BTCUSDT.csv');
    const text = readFileSync(btc, 'utf8');
    const partial = text.split('\n').slice(0, 700).join('\n').length + 1 + 17;
    truncateSync(btc, partial);
    rmSync(join(cut, 'candles/SOLUSDT.csv'));
    const fundingPath = join(cut, 'funding/BTCUSDT.csv');
    truncateSync(fundingPath, read(cut, 'funding/BTCUSDT.csv').split('\n').slice(0, 2).join('\n').length + 1);
    appendFileSync(fundingPath, '1735700000');
    expect(statSync(btc).size).toBe(partial);

    await download(cut);
    for (const path of [
      'candles/BTCUSDT.csv',
      'candles/SOLUSDT.csv',
      'funding/BTCUSDT.csv',
      'funding/SOLUSDT.csv',
      'manifest.json',
    ]) {
      expect(read(cut, path), path).toBe(read(full, path));
    }
  });

  it('treats a candle the exchange served with a field missing as a gap: filled flat and listed, never "undefined"', async () => {
    const damagedAt = FROM + 500 * MINUTE;
    const damaging = await startFakeExchange({ seed: 3, damaged: { SOLUSDT: [damagedAt] } });
    try {
      const out = tempDir();
      await downloadMarketData({
        exchange: 'binanceusdm',
        symbols: ['SOLUSDT'],
        timeframe: '1m',
        from: FROM,
        to: FROM + 1_000 * MINUTE,
        out,
        baseUrl: damaging.url,
        rateLimitMs: NO_THROTTLE,
        progress: quiet,
      });
      const text = read(out, 'candles/SOLUSDT.csv');
      expect(text).not.toContain('undefined');
      const rows = text
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',').map(Number));
      expect(rows).toHaveLength(1_000);
      const before = candleAt(3, instrumentById('SOLUSDT')!, damagedAt - MINUTE).close;
      expect(rows[500]).toEqual([damagedAt, before, before, before, before, 0]);
      expect(JSON.parse(read(out, 'manifest.json')).filledGaps).toEqual({
        SOLUSDT: [
          { from: new Date(damagedAt).toISOString(), to: new Date(damagedAt + MINUTE).toISOString(), candles: 1 },
        ],
      });
    } finally {
      await damaging.stop();
    }
  });

  it('refuses a resume into a directory of another timeframe', async () => {
    await expect(
      downloadMarketData({
        exchange: 'binanceusdm',
        symbols: ['BTCUSDT'],
        timeframe: '5m',
        from: FROM,
        to: TO,
        out: full,
        baseUrl: fake.url,
        rateLimitMs: NO_THROTTLE,
        progress: quiet,
      }),
    ).rejects.toThrow(/timeframe 1m, not 5m/);
  });

  it.each([
    [['--symbols', 'BTCUSDT', '--from', '2025-01-01', '--to', '2025-01-02', '--out', 'x'], /--exchange is required/],
    [
      [
        '--exchange',
        'binanceusdm',
        '--symbols',
        'BTC/USDT',
        '--from',
        '2025-01-01',
        '--to',
        '2025-01-02',
        '--out',
        'x',
      ],
      /system symbols/,
    ],
    [
      [
        '--exchange',
        'binanceusdm',
        '--symbols',
        'BTCUSDT',
        '--timeframe',
        '7m',
        '--from',
        '2025-01-01',
        '--to',
        '2025-01-02',
        '--out',
        'x',
      ],
      /--timeframe must be one of/,
    ],
    [
      ['--exchange', 'binanceusdm', '--symbols', 'BTCUSDT', '--from', 'yesterday', '--to', '2025-01-02', '--out', 'x'],
      /--from must be an ISO date/,
    ],
    [
      ['--exchange', 'binanceusdm', '--symbols', 'BTCUSDT', '--from', '2025-01-02', '--to', '2025-01-01', '--out', 'x'],
      /--from must be before --to/,
    ],
    [['--exchange', 'binanceusdm', '--bogus'], /Unknown option/],
  ])('refuses bad arguments with a message naming them: %j', (args, message) => {
    expect(() => parseDataDownloadArgs(args)).toThrow(ConfigError);
    expect(() => parseDataDownloadArgs(args)).toThrow(message);
  });

  it('reads a full set of arguments', () => {
    expect(
      parseDataDownloadArgs([
        '--exchange',
        'binanceusdm',
        '--symbols',
        'BTCUSDT,ETHUSDT',
        '--from',
        '2025-01-01',
        '--to',
        '2025-01-02T12:00',
        '--out',
        'data',
      ]),
    ).toEqual({
      exchange: 'binanceusdm',
      symbols: ['BTCUSDT', 'ETHUSDT'],
      timeframe: '1m',
      from: Date.UTC(2025, 0, 1),
      to: Date.UTC(2025, 0, 2, 12),
      out: 'data',
    });
  });

  it('runs as a command: exit 0, the files written, progress as plain lines on a non-terminal stderr', async () => {
    const out = tempDir();
    const written: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
    let code: number;
    try {
      code = await runDataDownload(
        [
          '--exchange',
          'binanceusdm',
          '--symbols',
          'ETHUSDT',
          '--from',
          '2025-01-01',
          '--to',
          '2025-01-01T02:00',
          '--out',
          out,
        ],
        { LIVE_EXCHANGE_URL: fake.url, TCS_TEST_EXCHANGE_RATE_LIMIT_MS: String(NO_THROTTLE) },
      );
    } finally {
      process.stderr.write = write;
    }
    expect(code).toBe(0);
    expect(read(out, 'candles/ETHUSDT.csv').trimEnd().split('\n')).toHaveLength(121);
    expect(written.join('')).toMatch(/^download: ETHUSDT candles 120\/120 \(100%\)/m);
    // The help names every option the parser takes.
    for (const option of ['--exchange', '--symbols', '--timeframe', '--from', '--to', '--out'])
      expect(DATA_DOWNLOAD_HELP).toContain(option);
  });
});

/**
 * `tcs venue check` and `tcs data download` with EXCHANGE=bybit (issue 33, item 3), the real
 * commands as child processes against the Bybit fake on loopback: the check prints the balance, the
 * positions and the open orders (ours and one placed by hand), the income read and the account
 * settings a live start checks, on Bybit's demo trading by default, sending only reads; the download
 * writes the range's candles and funding read from Bybit's v5 kline and funding-history paths.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ccxtClient } from '../support/fake-exchange/ccxt-client.js';
import { BYBIT_DIALECT } from '../support/fake-exchange/dialects/bybit/index.js';
import { FAKE_CREDENTIALS, startFakeExchange } from '../support/fake-exchange/server.js';
import type { FakeExchange } from '../support/fake-exchange/server.js';
import { exitWithin, startTcs } from '../support/processes.js';
import { exchangeProfile } from '../../src/adapters/exchanges/registry.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const root = mkdtempSync(join(tmpdir(), 'tcs-bybit-cli-'));
let fake: FakeExchange;

beforeAll(async () => {
  fake = await startFakeExchange({ deposit: 50_000, dialect: BYBIT_DIALECT });
  const client = ccxtClient(fake.url, { id: 'bybit', options: exchangeProfile('bybit').clientOptions });
  await client.loadMarkets();
  await client.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.02, undefined, { clientOrderId: 's-1-BTCUSDT-0' });
  await client.createOrder('ETH/USDT:USDT', 'limit', 'buy', 0.5, 1_000, { clientOrderId: 'by-hand-7' });
  await client.close();
});

afterAll(async () => {
  await fake.stop();
  rmSync(root, { recursive: true, force: true });
});

async function tcs(args: string[], env: Record<string, string>) {
  const proc = startTcs(args, env, root);
  const { code } = await exitWithin(proc, 60_000);
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

describe('tcs venue check and tcs data download on Bybit (fake)', () => {
  it('venue check prints the account and its settings from Bybit, on demo trading, sending only reads', async () => {
    const before = fake.calls.length;
    const res = await tcs(['venue', 'check'], {
      EXCHANGE: 'bybit',
      EXCHANGE_API_KEY: FAKE_CREDENTIALS.apiKey,
      EXCHANGE_API_SECRET: FAKE_CREDENTIALS.secret,
      EXCHANGE_URL: fake.url,
      SYMBOLS: 'BTCUSDT,ETHUSDT',
      // ccxt's throttle at 1 ms per unit of request weight (test-only): no exchange's rate to respect here.
      TCS_TEST_EXCHANGE_RATE_LIMIT_MS: '1',
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`exchange: bybit testnet (demo trading) via ${fake.url}`);
    expect(res.stdout).toMatch(/balance: NAV 49\d{3}\.\d+ USDT/);
    expect(res.stdout).toMatch(/^ {2}BTCUSDT 0\.02 @ /m);
    expect(res.stdout).toMatch(/^ {2}by-hand-7 ETHUSDT BUY 0\.5 limit @ 1000 \(filled 0\)$/m);
    expect(res.stdout).toMatch(/fees and funding over the last 7 days on the traded symbols: fees \d/);
    const calls = fake.calls.slice(before);
    expect(calls.some((c) => c.url.startsWith('/v5/'))).toBe(true);
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    // Bybit's demo trading hosts, never mainnet's.
    expect(calls.every((c) => c.host === null || c.host.startsWith('api-demo.'))).toBe(true);
    expect(res.stdout + res.stderr).not.toContain(FAKE_CREDENTIALS.secret);
  }, 60_000);

  it("data download writes every candle and funding settlement of a range longer than one of Bybit's pages", async () => {
    // Bybit answers a window newest first, at most 1 000 candles or 200 settlements: 70 days of
    // hourly candles (1 680) and funding (210, every 8 h) take several pages each.
    const out = join(root, 'data');
    const from = Date.UTC(2025, 0, 1);
    const to = from + 70 * DAY;
    const res = await tcs(
      ['data', 'download', '--exchange', 'bybit', '--symbols', 'BTCUSDT', '--timeframe', '1h'].concat([
        '--from',
        new Date(from).toISOString(),
        '--to',
        new Date(to).toISOString(),
        '--out',
        out,
      ]),
      { LIVE_EXCHANGE_URL: fake.url, TCS_TEST_EXCHANGE_RATE_LIMIT_MS: '1' },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(fake.requests.some((r) => r.startsWith('/v5/market/kline'))).toBe(true);
    expect(fake.requests.some((r) => r.startsWith('/v5/market/funding/history'))).toBe(true);
    const firstColumn = (file: string) =>
      readFileSync(join(out, file), 'utf8')
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => Number(line.split(',')[0]));
    expect(firstColumn('candles/BTCUSDT.csv')).toEqual(Array.from({ length: 1_680 }, (_, i) => from + i * HOUR));
    expect(firstColumn('funding/BTCUSDT.csv')).toEqual(Array.from({ length: 210 }, (_, i) => from + i * 8 * HOUR));
  }, 90_000);
});

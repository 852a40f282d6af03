/**
 * `tcs venue check` and `tcs data download` with EXCHANGE=okx (issue 33, item 3), the real commands
 * as child processes against the OKX fake on loopback, whose swaps trade in OKX's real contracts
 * (0.01 BTC, 0.1 ETH): the check prints the balance, the positions and the open orders in the base
 * (ours and one placed by hand), the income read and the account settings a live start checks, on
 * OKX's demo trading by default with the key's passphrase, sending only reads; the download writes
 * the range's candles and funding read from OKX's v5 history-candles and funding-rate-history paths.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ccxtClient } from '../support/fake-exchange/ccxt-client.js';
import { OKX_DIALECT } from '../support/fake-exchange/dialects/okx/index.js';
import { FAKE_CREDENTIALS, startFakeExchange } from '../support/fake-exchange/server.js';
import type { FakeExchange } from '../support/fake-exchange/server.js';
import { exitWithin, startTcs } from '../support/processes.js';
import { exchangeProfile } from '../../src/adapters/exchanges/registry.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const root = mkdtempSync(join(tmpdir(), 'tcs-okx-cli-'));
let fake: FakeExchange;

beforeAll(async () => {
  fake = await startFakeExchange({ deposit: 50_000, dialect: OKX_DIALECT });
  const client = ccxtClient(fake.url, { id: 'okx', options: exchangeProfile('okx').clientOptions });
  await client.loadMarkets();
  // In OKX's contracts, as a person at its screen orders: 2 × 0.01 BTC, 5 × 0.1 ETH.
  await client.createOrder('BTC/USDT:USDT', 'market', 'buy', 2, undefined, { clientOrderId: 's1BTCUSDT0' });
  await client.createOrder('ETH/USDT:USDT', 'limit', 'buy', 5, 1_000, { clientOrderId: 'byhand7' });
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

describe('tcs venue check and tcs data download on OKX (fake)', () => {
  it('venue check prints the account and its settings from OKX in the base, on demo trading, sending only reads', async () => {
    const before = fake.calls.length;
    const res = await tcs(['venue', 'check'], {
      EXCHANGE: 'okx',
      EXCHANGE_API_KEY: FAKE_CREDENTIALS.apiKey,
      EXCHANGE_API_SECRET: FAKE_CREDENTIALS.secret,
      EXCHANGE_API_PASSPHRASE: FAKE_CREDENTIALS.passphrase!,
      EXCHANGE_URL: fake.url,
      SYMBOLS: 'BTCUSDT,ETHUSDT',
      // ccxt's throttle at 1 ms per unit of request weight (test-only): no exchange's rate to respect here.
      TCS_TEST_EXCHANGE_RATE_LIMIT_MS: '1',
    });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`exchange: okx testnet (demo trading) via ${fake.url}`);
    expect(res.stdout).toMatch(/balance: NAV 49\d{3}\.\d+ USDT/);
    expect(res.stdout).toMatch(/^ {2}BTCUSDT 0\.02 @ /m);
    expect(res.stdout).toMatch(/^ {2}byhand7 ETHUSDT BUY 0\.5 limit @ 1000 \(filled 0\)$/m);
    expect(res.stdout).toMatch(/fees and funding over the last 7 days on the traded symbols: fees \d/);
    const calls = fake.calls.slice(before);
    expect(calls.some((c) => c.url.startsWith('/api/v5/'))).toBe(true);
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    expect(res.stdout + res.stderr).not.toContain(FAKE_CREDENTIALS.secret);
    expect(res.stdout + res.stderr).not.toContain(FAKE_CREDENTIALS.passphrase);
  }, 60_000);

  it("data download writes every candle and funding settlement of a range longer than one of OKX's pages", async () => {
    // OKX answers newest first, at most 100 candles or 100 settlements a page: 70 days of hourly
    // candles (1 680) and funding (210, every 8 h) take several pages each.
    const out = join(root, 'data');
    const from = Date.UTC(2025, 0, 1);
    const to = from + 70 * DAY;
    const res = await tcs(
      ['data', 'download', '--exchange', 'okx', '--symbols', 'BTCUSDT', '--timeframe', '1h'].concat([
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
    expect(fake.requests.some((r) => r.startsWith('/api/v5/market/history-candles'))).toBe(true);
    expect(fake.requests.some((r) => r.startsWith('/api/v5/public/funding-rate-history'))).toBe(true);
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

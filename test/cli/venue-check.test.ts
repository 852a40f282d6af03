/**
 * `tcs venue check` as an operator runs it (the real command, a child process) against the fake
 * exchange on loopback (EXCHANGE_URL): it prints the balance, the positions and the open orders —
 * the system's and one placed by hand — and the last 7 days' fees and funding from the income
 * history (or that it cannot be read), and sends only reads; refused keys exit 1 without the key
 * in the output, a missing key exits 2 naming the variable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ccxtClient } from '../support/fake-exchange/ccxt-client.js';
import { FAKE_CREDENTIALS, startFakeExchange } from '../support/fake-exchange/server.js';
import type { FakeExchange } from '../support/fake-exchange/server.js';
import { startTcs } from '../support/processes.js';

let fake: FakeExchange;

beforeAll(async () => {
  fake = await startFakeExchange({ deposit: 50_000 });
  const client = ccxtClient(fake.url);
  await client.loadMarkets();
  await client.createOrder('BTC/USDT:USDT', 'market', 'buy', 0.02, undefined, { clientOrderId: 's-1-BTCUSDT-0' });
  await client.createOrder('ETH/USDT:USDT', 'limit', 'buy', 0.5, 1_000, { clientOrderId: 'by-hand-7' });
  await client.close();
});

afterAll(async () => {
  await fake.stop();
});

const env = (overrides: Record<string, string> = {}) => ({
  EXCHANGE: 'binanceusdm',
  EXCHANGE_API_KEY: FAKE_CREDENTIALS.apiKey,
  EXCHANGE_API_SECRET: FAKE_CREDENTIALS.secret,
  EXCHANGE_URL: fake.url,
  SYMBOLS: 'BTCUSDT,ETHUSDT',
  ...overrides,
});

async function check(vars: Record<string, string>) {
  const proc = startTcs(['venue', 'check'], vars);
  const { code } = await proc.exited;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

describe('tcs venue check', () => {
  it('prints the balance, positions and open orders, sending only reads, on the testnet by default', async () => {
    const before = fake.calls.length;
    const res = await check(env());
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`exchange: binanceusdm testnet (demo trading) via ${fake.url}`);
    expect(res.stdout).toMatch(/balance: NAV 49\d{3}\.\d+ USDT/);
    expect(res.stdout).toMatch(/^ {2}BTCUSDT 0\.02 @ /m);
    expect(res.stdout).toMatch(/^ {2}by-hand-7 ETHUSDT BUY 0\.5 limit @ 1000 \(filled 0\)$/m);
    const calls = fake.calls.slice(before);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
    // Demo trading's hosts, not mainnet's.
    expect(calls.every((c) => c.host === null || c.host.startsWith('demo-'))).toBe(true);
    expect(res.stdout).not.toContain(FAKE_CREDENTIALS.secret);
    // The fee of the market buy, as the exchange booked it in the income history the live account reads.
    const fee = fake.venue.trades('BTCUSDT').reduce((sum, t) => sum + t.commission, 0);
    expect(fee).toBeGreaterThan(0);
    expect(res.stdout).toContain(
      `fees and funding over the last 7 days on the traded symbols: fees ${Math.round(fee * 1e8) / 1e8} USDT, funding 0 USDT`,
    );
  });

  it('says how much was paid in BNB fees, which the live account leaves out (not converted)', async () => {
    fake.venue.feeIn('BNB', 'BTCUSDT', 0.0003);
    const res = await check(env());
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      "fees paid in BNB over the last 7 days: 0.0003 BNB (not converted: the live account's fees leave them out)",
    );
  });

  it('says when the income history cannot be read (the live account would show no fees), and still exits 0', async () => {
    fake.faults.serverErrors(1, 503, false, { method: 'GET', pathname: '/fapi/v1/income' });
    const res = await check(env());
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /^income history: not readable \(\w+: .+\); the live account's fees and funding would read 0$/m,
    );
  });

  it('refused keys: exit 1 with the reason, and neither the key nor the secret in the output', async () => {
    const wrong = 'wrongSecret00000000000000000000000000000000000000000000000000001';
    const res = await check(env({ EXCHANGE_API_SECRET: wrong }));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/did not answer: AuthenticationError/);
    for (const secret of [wrong, FAKE_CREDENTIALS.apiKey]) expect(res.stdout + res.stderr).not.toContain(secret);
  });

  it('a missing key exits 2 naming it; mainnet without LIVE_MAINNET=confirm exits 2 naming that', async () => {
    const missing = await check(env({ EXCHANGE_API_KEY: '' }));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('EXCHANGE_API_KEY is not set');
    const mainnet = await check(env({ EXCHANGE_TESTNET: 'false' }));
    expect(mainnet.code).toBe(2);
    expect(mainnet.stderr).toContain('LIVE_MAINNET must be "confirm"');
  });
});

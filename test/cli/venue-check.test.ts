/**
 * `tcs venue check` as an operator runs it (the real command, a child process) against the fake
 * exchange on loopback (EXCHANGE_URL): it prints the balance, the positions and the open orders —
 * the system's and one placed by hand — and the last 7 days' fees and funding from the income
 * history (or that it cannot be read), and the account's settings a live start checks (position
 * and asset mode, each symbol's leverage and margin type, clock skew: exit 2 naming the fix when a
 * start would refuse them, what a start would set otherwise), and sends only reads; refused keys
 * exit 1 without the key in the output, a missing key exits 2 naming the variable.
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
  // ccxt's throttle at 1 ms per unit of request weight (test-only, as in the e2e runs): at Binance's
  // weights a check waited some 4.5 s on it (the income history and two account settings, 1.5 s
  // each), and two checks in one test went past the 20 s timeout on a loaded machine. The first test
  // keeps the throttle an operator runs with.
  TCS_TEST_EXCHANGE_RATE_LIMIT_MS: '1',
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
    const { TCS_TEST_EXCHANGE_RATE_LIMIT_MS: _throttle, ...asOperatorsRun } = env();
    const res = await check(asOperatorsRun);
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

  it('warns (and still exits 0) when the symbols at CYCLE_SECONDS cannot fit the request weight budget', async () => {
    const fits = await check(env());
    expect(fits.stdout).toMatch(/^request weight: about \d+ a minute for 2 symbols at 60 s cycles \(1,200 planned/m);
    const res = await check(env({ SYMBOLS: 'BTCUSDT,ETHUSDT,SOLUSDT', CYCLE_SECONDS: '1' }));
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(
      /tcs venue check: warning: 3 symbols at 1 s cycles need about [\d,]+ request weight a minute, .*use CYCLE_SECONDS=\d+ or more/,
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

  it('prints the account settings a live start checks, and what it would set, changing nothing', async () => {
    const before = fake.calls.length;
    const res = await check(env({ EXCHANGE_LEVERAGE: '5' }));
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(
      /^account: one-way position mode, single-asset mode, clock -?\d+ ms off the exchange's$/m,
    );
    expect(res.stdout).toMatch(/^ {2}BTCUSDT leverage 20x, cross margin$/m);
    expect(res.stdout).toMatch(/^ {2}ETHUSDT leverage 20x, cross margin$/m);
    expect(res.stdout).toContain('a live start would set: BTCUSDT leverage 20x → 5x, ETHUSDT leverage 20x → 5x');
    expect(fake.calls.slice(before).filter((c) => c.method !== 'GET')).toEqual([]);
    expect(fake.venue.settings.of('BTCUSDT').leverage).toBe(20);
  });

  it('a hedge-mode account, or a leverage it may not set: exit 2 naming what to change on the exchange', async () => {
    fake.venue.settings.dualSidePosition = true;
    try {
      const hedge = await check(env());
      expect(hedge.code).toBe(2);
      expect(hedge.stdout).toMatch(/^account: hedge position mode/m);
      expect(hedge.stderr).toContain(
        'tcs venue check: a live start would refuse this account: the account is in hedge mode: switch to one-way mode',
      );
    } finally {
      fake.venue.settings.dualSidePosition = false;
    }
    const fixed = await check(env({ EXCHANGE_LEVERAGE: '5', EXCHANGE_SET_LEVERAGE: 'false' }));
    expect(fixed.code).toBe(2);
    expect(fixed.stderr).toContain('BTCUSDT leverage is 20x on the exchange, EXCHANGE_LEVERAGE=5: set it to 5x');
  });

  it('a margin type change with a position open: exit 2 saying the exchange refuses it and what to do', async () => {
    fake.venue.setPosition('BTCUSDT', 0.01);
    try {
      const before = fake.calls.length;
      const res = await check(env({ EXCHANGE_MARGIN_TYPE: 'isolated' }));
      expect(res.code).toBe(2);
      expect(res.stdout).not.toMatch(/would set: .*BTCUSDT margin type/);
      expect(res.stderr).toContain(
        'BTCUSDT margin type cannot be changed cross → isolated while the symbol holds a position ' +
          '(the exchange refuses that): close the position first, or set EXCHANGE_MARGIN_TYPE=cross',
      );
      // ETHUSDT holds nothing: its change is still possible, and nothing was sent that changes the account.
      expect(res.stderr).not.toContain('ETHUSDT margin type cannot');
      expect(fake.calls.slice(before).filter((c) => c.method !== 'GET')).toEqual([]);
    } finally {
      fake.venue.setPosition('BTCUSDT', 0);
    }
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

  it('reads the test-only throttle variable as the trading process does: a value out of range exits 2 naming it', async () => {
    const res = await check(env({ TCS_TEST_EXCHANGE_RATE_LIMIT_MS: '0' }));
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('TCS_TEST_EXCHANGE_RATE_LIMIT_MS must be between 1 and 60000, got 0');
  });
});

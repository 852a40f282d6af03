/**
 * EXCHANGE=okx end to end: a real `tcs trade` process (EXECUTION_MODE=live, the demo path, key,
 * secret and passphrase) against the fake exchange speaking OKX v5 on loopback: an order left on the
 * exchange by someone else is cancelled before the first cycle (`foreign_orders`), and the system's
 * own orders reach OKX's order path under clOrdIds OKX accepts and fill on the fake's book.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { openTradingFake, placeByHand } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { OKX_DIALECT } from '../support/fake-exchange/dialects/okx/index.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { FAKE_CREDENTIALS } from '../support/fake-exchange/server.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';

const FLIP = fileURLToPath(new URL('../fixtures/strategies/btc-flip-each-cycle.js', import.meta.url));

let t: TradingFake | undefined;
let proc: RunningProcess | undefined;
let dir = '';

afterAll(async () => {
  if (proc && proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tcs trade with EXCHANGE=okx (fake OKX v5 exchange)', () => {
  it('cancels a foreign order at start and trades on the exchange under clOrdIds OKX accepts', async () => {
    // The fake's clock is the wall clock: the child signs requests with it.
    t = await openTradingFake({ deposit: 100_000, start: Date.now(), dialect: OKX_DIALECT });
    await t.exchange.loadMarkets();
    await placeByHand(t.exchange, 'BTC/USDT:USDT', 'buy', 0.2, 1_000, 'byhand1');
    dir = mkdtempSync(join(tmpdir(), 'tcs-live-okx-'));
    proc = startTcs(
      ['trade'],
      {
        STORE_URL: `sqlite:${join(dir, 'tcs.db')}`,
        RISK_HMAC_SECRET: generateKey(),
        CONTROL_PLANE_TIMEOUT: '0',
        ...liveEnvFor(t.fake.url),
        EXCHANGE: 'okx',
        MARKET_DATA: 'live:okx',
        EXCHANGE_API_PASSPHRASE: FAKE_CREDENTIALS.passphrase!,
        CYCLE_SECONDS: '0.3',
        SYMBOLS: 'BTCUSDT',
        STRATEGIES: FLIP,
        RISK_FRACTION: '0.02',
        ORDER_STYLE: 'market',
        EXCHANGE_TIMEOUT_MS: '2000',
        LOG_LEVEL: 'info',
      },
      dir,
    );
    await proc.waitFor(/"event":"orders_cancelled".*"reason":"foreign_orders"/, 30_000);
    expect(t.fake.venue.find('BTCUSDT', { clientOrderId: 'byhand1' })?.status).toBe('CANCELED');
    await proc.waitFor(/"event":"order_filled"/, 30_000);
    const ours = t.fake.venue.allOrders().filter((o) => o.clientOrderId !== 'byhand1');
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.every((o) => /^[A-Za-z0-9]{1,32}$/.test(o.clientOrderId))).toBe(true);
    expect(t.fake.venue.trades('BTCUSDT').length).toBeGreaterThan(0);
    expect(t.fake.calls.some((c) => c.method === 'POST' && c.url.startsWith('/api/v5/trade/order'))).toBe(true);
    // The secrets never reach a log line.
    for (const secret of [FAKE_CREDENTIALS.secret, FAKE_CREDENTIALS.passphrase!])
      expect(proc.stdout() + proc.stderr()).not.toContain(secret);
    proc.child.kill('SIGTERM');
  });
});

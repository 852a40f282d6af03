/**
 * A crash mid-submit on the live venue, as real processes against the fake exchange: the exchange
 * takes the trading process's first order and never answers; the process is SIGKILLed while it is
 * still waiting for the answer (looking the order up). The restarted process finds what the order
 * did from the exchange, not from memory — the position it opened is adopted at the start-up
 * reconciliation (no drift) — and the order itself was placed once, never again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';

const LONG = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.ts', import.meta.url));

let t: TradingFake | undefined;
const procs: RunningProcess[] = [];
let dir = '';

afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await Promise.all(procs.map((p) => p.exited));
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function waitUntil(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a crash mid-submit on the live venue (fake exchange)', () => {
  it('the order was placed once; the restart finds its position on the exchange and adopts it', async () => {
    t = await openTradingFake({ deposit: 100_000, start: Date.now() });
    dir = mkdtempSync(join(tmpdir(), 'tcs-live-crash-'));
    const env = {
      STORE_URL: `sqlite:${join(dir, 'tcs.db')}`,
      RISK_HMAC_SECRET: generateKey(),
      CONTROL_PLANE_TIMEOUT: '0',
      ...liveEnvFor(t.fake.url),
      CYCLE_SECONDS: '0.3',
      SYMBOLS: 'BTCUSDT',
      STRATEGIES: LONG,
      RISK_FRACTION: '0.02',
      ORDER_STYLE: 'market',
      LOG_LEVEL: 'info',
    };
    const orderPosts = () => t!.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    // The first order is carried out and its answer never comes.
    t.fake.faults.neverAnswer('POST', '/fapi/v1/order');
    const first = startTcs(['trade'], env, dir);
    procs.push(first);
    await waitUntil(() => orderPosts().length === 1, 20_000, 'the first order sent');
    const placed = t.fake.venue.trades('BTCUSDT');
    expect(placed.length).toBeGreaterThan(0); // it traded on the exchange
    const held = t.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')!.qty;
    expect(held).toBeGreaterThan(0);
    // Still waiting for the answer (ccxt's 10 s deadline): killed mid-submit.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(first.stdout()).not.toMatch(/"event":"order_filled"/);

    const second = startTcs(['trade'], env, dir);
    procs.push(second);
    await second.waitFor(/"event":"cycle_end"/, 20_000);
    // Adopted at the start-up reconciliation: the system already holds its target, so no drift and
    // no second order for what the first one did.
    expect(second.stdout()).not.toMatch(/"event":"position_drift"/);
    expect(second.stderr()).toMatch(/live venue: reconciled with the exchange/);
    await second.waitFor(/"event":"cycle_end","cycle":3,/, 20_000);
    const after = t.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')!.qty;
    expect(after).toBeCloseTo(held, 9);
    expect(orderPosts()).toHaveLength(1);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 60_000);
});

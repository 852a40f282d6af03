/**
 * The account checked before the first live order (issue 32, item 5) as a real `tcs trade` process
 * against the fake exchange on loopback: a hedge-mode account, and a local clock 8 s behind the
 * exchange's, each stop the start with exit 2 and a message naming what to change, before any
 * order or cancel reaches the exchange (before, a hedge-mode account had every order refused -4061
 * and `/health` said ok). A one-way account with EXCHANGE_LEVERAGE set gets it set and trades.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { startFakeExchange } from '../support/fake-exchange/server.js';
import type { FakeExchange } from '../support/fake-exchange/server.js';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';

const FLIP = fileURLToPath(new URL('../fixtures/strategies/btc-flip-each-cycle.js', import.meta.url));

let fake: FakeExchange;
/** How far the exchange's clock is ahead of the wall clock the child runs on, ms. */
let serverAhead = 0;
let dir = '';
const procs: RunningProcess[] = [];

beforeAll(async () => {
  fake = await startFakeExchange({ now: () => Date.now() + serverAhead, deposit: 100_000 });
  dir = mkdtempSync(join(tmpdir(), 'tcs-live-account-'));
});

beforeEach(() => {
  serverAhead = 0;
  fake.reset();
});

afterAll(async () => {
  for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
  await fake.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function trade(name: string, extra: Record<string, string> = {}): RunningProcess {
  const proc = startTcs(
    ['trade'],
    {
      STORE_URL: `sqlite:${join(dir, `${name}.db`)}`,
      RISK_HMAC_SECRET: generateKey(),
      CONTROL_PLANE_TIMEOUT: '0',
      ...liveEnvFor(fake.url),
      CYCLE_SECONDS: '0.3',
      SYMBOLS: 'BTCUSDT',
      STRATEGIES: FLIP,
      RISK_FRACTION: '0.02',
      ORDER_STYLE: 'market',
      LOG_LEVEL: 'info',
      ...extra,
    },
    dir,
  );
  procs.push(proc);
  return proc;
}

/** Nothing but reads reached the exchange: no order, no cancel, no countdown, no setting changed. */
const writes = () => fake.calls.filter((c) => c.method !== 'GET');

describe('tcs trade with EXECUTION_MODE=live: the account checked before the first order', () => {
  it('refuses a hedge-mode account with exit 2, naming how to switch to one-way mode, sending nothing', async () => {
    fake.venue.settings.dualSidePosition = true;
    const proc = trade('hedge', { EXCHANGE_LEVERAGE: '5' });
    const { code } = await exitWithin(proc, 30_000);
    expect(code).toBe(2);
    expect(proc.stderr()).toContain(
      'the account is in hedge mode: switch to one-way mode (Binance: Preferences → Position Mode → One-way, ' +
        'or POST /fapi/v1/positionSide/dual dualSidePosition=false)',
    );
    expect(writes()).toEqual([]);
    expect(fake.venue.settings.of('BTCUSDT').leverage).toBe(20);
  });

  it('refuses a local clock 8 s behind the exchange with exit 2, naming the skew', async () => {
    serverAhead = 8_000;
    const proc = trade('skew');
    const { code } = await exitWithin(proc, 30_000);
    expect(code).toBe(2);
    expect(proc.stderr()).toMatch(/the local clock is 8\.\d s behind the exchange's \(more than 5 s/);
    expect(writes()).toEqual([]);
  });

  it('sets EXCHANGE_LEVERAGE on a one-way account before its first order, then trades', async () => {
    const proc = trade('leverage', { EXCHANGE_LEVERAGE: '3' });
    await proc.waitFor(/"event":"order_filled"/, 30_000);
    expect(fake.venue.settings.of('BTCUSDT').leverage).toBe(3);
    const leverage = fake.calls.findIndex((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/leverage'));
    const order = fake.calls.findIndex((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    expect(leverage).toBeGreaterThanOrEqual(0);
    expect(leverage).toBeLessThan(order);
    expect(proc.stdout() + proc.stderr()).toContain('BTCUSDT leverage 20x → 3x');
    proc.child.kill('SIGTERM');
    await exitWithin(proc, 30_000);
  });
});

/**
 * End to end, as an operator runs it: `tcs start` launches the API and the trading process as two
 * supervised OS processes on a shared store (SQLite file or Redis). Over HTTP: the six spec event
 * lines of a cycle appear in order; pause stops the cycles and resume restarts them; the kill switch
 * halts trading and cancels resting paper orders. SIGKILL of the trading process loses no position,
 * order or decision, killed stays killed across restarts, and only --reset-kill (audited) ends it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { HEARTBEAT_KEY, PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import type { PortfolioDocument, TradingHeartbeat } from '../../src/domain/runtime-documents.js';
import { generateKey } from '../../src/domain/keys.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { STORE_KINDS, openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { PERMISSIVE_ENV } from '../support/trading.js';

const SPEC_EVENTS = ['cycle_start', 'signal_generated', 'risk_approved', 'order_submitted', 'cycle_end'];

describe.each(STORE_KINDS)('the whole system on %s', (kind) => {
  let dir = '';
  let proc: RunningProcess | undefined;
  let t: TestStore | undefined;
  const key = generateKey();
  afterEach(async () => {
    await proc?.stop();
    proc = undefined;
    await t?.cleanup();
    t = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function start(extra: string[] = []) {
    const env = {
      ...PERMISSIVE_ENV,
      CYCLE_SECONDS: '0.5',
      SERVICE_API_KEY: key,
      RISK_HMAC_SECRET: generateKey(),
      STORE_URL: t!.url,
      PORT: '0',
      LOG_LEVEL: 'info',
      HEARTBEAT_MS: '200',
    };
    proc = startTcs(['start', ...extra], env, dir);
    const [, base] = await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/);
    return base!;
  }
  const lines = () =>
    proc!
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { event: string; cycle?: number });
  const call = (base: string, method: string, path: string, body?: unknown) =>
    fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const heartbeat = () => t!.store.kv.get<TradingHeartbeat>(HEARTBEAT_KEY);

  it('trades on paper: the six event lines in order; pause stops the cycles, resume restarts them', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-e2e-'));
    t = await openTestStore(kind);
    const base = await start();
    await proc!.waitFor(/"event":"cycle_end","cycle":2,/, 20_000);
    const all = lines();
    expect(all[0]).toEqual({ event: 'session_started', mode: 'paper', strategies: ['btc_always_long'] });
    const cycle1 = all.filter((l) => SPEC_EVENTS.includes(l.event)).slice(0, 5);
    expect(cycle1.map((l) => l.event)).toEqual(SPEC_EVENTS);
    expect(Object.keys(cycle1[0]!)).toEqual(['event', 'cycle', 'timestamp']);
    expect(Object.keys(cycle1[1]!)).toEqual(['event', 'agent', 'symbol', 'direction', 'confidence']);
    expect(Object.keys(cycle1[2]!)).toEqual(['event', 'symbol', 'size', 'token']);
    expect(Object.keys(cycle1[3]!)).toEqual(['event', 'symbol', 'side', 'qty', 'mode']);
    expect(Object.keys(cycle1[4]!)).toEqual(['event', 'cycle', 'duration_ms']);
    expect((cycle1[2] as unknown as { token: string }).token).toMatch(/^hmac:[0-9a-f]{64}$/);

    expect((await call(base, 'POST', '/control/pause', { reason: 'e2e' })).status).toBe(200);
    await proc!.waitFor(/"event":"control_changed","state":"paused"/);
    const cyclesAtPause = lines().filter((l) => l.event === 'cycle_start').length;
    await new Promise((r) => setTimeout(r, 1500)); // three cycle lengths
    expect(lines().filter((l) => l.event === 'cycle_start').length).toBe(cyclesAtPause);

    expect((await call(base, 'POST', '/control/resume')).status).toBe(200);
    await vi.waitFor(
      () => expect(lines().filter((l) => l.event === 'cycle_start').length).toBeGreaterThan(cyclesAtPause),
      { timeout: 5000 },
    );
    const health = await (await fetch(`${base}/health`)).json();
    expect(health).toMatchObject({
      status: 'ok',
      state: 'running',
      components: { trading_process: { status: 'ok', mode: 'paper' } },
    });
    const decisions = (await (await call(base, 'GET', '/reports/decisions?limit=5')).json()) as unknown[];
    expect(decisions.length).toBeGreaterThan(0);
    // The trading process's metrics reach the API's /metrics with their own process label.
    const families = parsePrometheusTextFormat(await (await fetch(`${base}/metrics`)).text());
    const cycles = families.find((f) => f.name === 'tcs_trading_cycles_total');
    expect(cycles?.metrics.find((m) => m.labels?.outcome === 'completed')?.labels?.process).toBe('trading');
    expect(families.find((f) => f.name === 'tcs_http_requests_total')?.metrics[0]?.labels?.process).toBe('api');
  }, 60_000);

  it('kill switch cancels resting orders; a SIGKILLed trading process comes back with nothing lost and still killed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-e2e-'));
    t = await openTestStore(kind);
    const base = await start();
    // Passive orders rest on the bid; wait until some are open.
    await vi.waitFor(
      async () =>
        expect((await t!.store.kv.get<PortfolioDocument>(PORTFOLIO_KEY))?.openOrders.length ?? 0).toBeGreaterThan(0),
      { timeout: 15_000, interval: 100 },
    );

    // SIGKILL mid-run: the supervisor restarts it; positions, orders and decisions survive.
    const before = await t.store.kv.get<PortfolioDocument>(PORTFOLIO_KEY);
    const decisionsBefore = (await t.store.events.query({ kind: 'decision', limit: 1000 })).length;
    const victim = (await heartbeat())!.pid;
    process.kill(victim, 'SIGKILL');
    await vi.waitFor(async () => expect((await heartbeat())?.pid).not.toBe(victim), { timeout: 15_000, interval: 100 });
    const after = await t.store.kv.get<PortfolioDocument>(PORTFOLIO_KEY);
    for (const order of before!.openOrders) {
      const still = after!.openOrders.find((o) => o.clientOrderId === order.clientOrderId);
      const filled = after!.positions.some((p) => p.symbol === order.symbol);
      expect(still !== undefined || filled, `order ${order.clientOrderId}`).toBe(true);
    }
    for (const position of before!.positions) {
      expect(
        after!.positions.find((p) => p.symbol === position.symbol),
        position.symbol,
      ).toBeDefined();
    }
    expect((await t.store.events.query({ kind: 'decision', limit: 1000 })).length).toBeGreaterThanOrEqual(
      decisionsBefore,
    );

    // Kill over HTTP: the trading process halts and cancels every resting order.
    await vi.waitFor(
      async () =>
        expect((await t!.store.kv.get<PortfolioDocument>(PORTFOLIO_KEY))?.openOrders.length ?? 0).toBeGreaterThan(0),
      { timeout: 15_000, interval: 100 },
    );
    const kill = await call(base, 'POST', '/control/kill-switch', { reason: 'e2e kill' });
    expect(kill.status).toBe(200);
    await proc!.waitFor(/"event":"orders_cancelled","reason":"kill/);
    await vi.waitFor(
      async () => expect((await t!.store.kv.get<PortfolioDocument>(PORTFOLIO_KEY))?.openOrders).toEqual([]),
      { timeout: 5000, interval: 50 },
    );
    const submittedAtKill = lines().filter((l) => l.event === 'order_submitted').length;

    // Killed survives a SIGKILL and restart of the trading process.
    const killedPid = (await heartbeat())!.pid;
    process.kill(killedPid, 'SIGKILL');
    await vi.waitFor(async () => expect(await heartbeat()).toMatchObject({ state: 'killed' }), {
      timeout: 15_000,
      interval: 100,
    });
    await vi.waitFor(async () => expect((await heartbeat())?.pid).not.toBe(killedPid), {
      timeout: 15_000,
      interval: 100,
    });
    await new Promise((r) => setTimeout(r, 1000));
    expect(lines().filter((l) => l.event === 'order_submitted').length).toBe(submittedAtKill);
    expect((await call(base, 'POST', '/control/resume')).status).toBe(409);
    expect((await t.store.events.verify()).ok).toBe(true);
  }, 90_000);

  it('killed survives a full restart; only --reset-kill ends it, and the reset is audited', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-e2e-'));
    t = await openTestStore(kind);
    let base = await start();
    await call(base, 'POST', '/control/kill-switch', { reason: 'before restart' });
    await proc!.waitFor(/"event":"control_changed","state":"killed"/);
    await proc!.stop('SIGTERM');
    expect((await proc!.exited).code).toBe(0);
    base = await start();
    expect(((await (await call(base, 'GET', '/control/status')).json()) as { state: string }).state).toBe('killed');
    await proc!.stop('SIGTERM');
    base = await start(['--reset-kill', '--reason', 'incident closed']);
    expect(proc!.stderr()).toContain('--reset-kill: killed → running');
    expect(((await (await call(base, 'GET', '/control/status')).json()) as { state: string }).state).toBe('running');
    await proc!.waitFor(/"event":"cycle_start"/);
    const [reset] = await t.store.events.query({ kind: 'kill_reset', limit: 1 });
    expect(reset?.body).toMatchObject({ reason: 'incident closed', from: 'killed', to: 'running' });
  }, 60_000);

  it('children do not outlive a SIGKILLed launcher (no orphan trading on)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-e2e-'));
    t = await openTestStore(kind);
    const base = await start();
    await vi.waitFor(async () => expect(await heartbeat()).toBeTruthy(), { timeout: 10_000, interval: 100 });
    const tradingPid = (await heartbeat())!.pid;
    proc!.child.kill('SIGKILL');
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await vi.waitFor(() => expect(alive(tradingPid)).toBe(false), { timeout: 15_000, interval: 100 });
    await vi.waitFor(
      async () =>
        expect(
          await fetch(`${base}/health`).then(
            () => 'up',
            () => 'down',
          ),
        ).toBe('down'),
      { timeout: 15_000, interval: 100 },
    );
    expect(await heartbeat()).toMatchObject({ pid: tradingPid, stopped: true });
  }, 60_000);
});

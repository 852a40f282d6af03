/**
 * Fail closed with the real processes (`tcs api` and `tcs trade` as separate OS processes on a
 * redis-server of the test's own):
 *  - the control plane goes away (the API is SIGKILLed): within CONTROL_PLANE_TIMEOUT the trading
 *    process halts, cancels its resting orders and opens nothing; when an API is back it resumes by
 *    itself and records the halt in the audit trail;
 *  - the store goes away (redis-server SIGKILLed): after STORE_LOSS_HALT_MS it halts the same way;
 *    when the store comes back (its append-only file intact) it resumes by itself, and the halt is
 *    in the audit trail, which verifies;
 *  - a kill that the store forgets (redis restarted empty, the trading process SIGKILLed and
 *    restarted) stays a kill: nothing trades on the empty store, and the operator's `tcs store adopt`
 *    brings back `killed`, which the API refuses to leave.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openRedisStore } from '../../src/adapters/redis/redis-store.js';
import { generateKey } from '../../src/domain/keys.js';
import { HEARTBEAT_KEY, PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import type { Store } from '../../src/ports/store.js';
import { callApi, eventually } from '../support/fault-api.js';
import { startApi, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { startOwnRedis } from '../support/redis-server.js';
import type { OwnRedis } from '../support/redis-server.js';
import { PERMISSIVE_ENV } from '../support/trading.js';
import { readDocument } from '../../src/ports/documents.js';
import { COUNTED_RETRIES_ENV, expectWaitingWithoutTrading, STORE_RETRY_MS } from './support.js';

const CYCLE_MS = 300;

interface Rig {
  redis: OwnRedis;
  appendOnly: boolean;
  dir: string;
  env: NodeJS.ProcessEnv;
  key: string;
  api: { proc: RunningProcess; baseUrl: string } | null;
  trader: RunningProcess | null;
  /** A plain connection to the same Redis, to read what the processes wrote. */
  look: Store | null;
}

async function openRig(appendOnly: boolean): Promise<Rig> {
  const redis = await startOwnRedis({ appendOnly });
  const dir = mkdtempSync(join(tmpdir(), 'tcs-halts-'));
  const key = generateKey();
  const env = {
    ...PERMISSIVE_ENV,
    SERVICE_API_KEY: key,
    RISK_HMAC_SECRET: generateKey(),
    STORE_URL: redis.url,
    CYCLE_SECONDS: String(CYCLE_MS / 1000),
    HEARTBEAT_MS: '200',
    API_HEARTBEAT_MS: '200',
    CONTROL_PLANE_TIMEOUT: '1.5',
    STORE_LOSS_HALT_MS: '1000',
    STORE_TIMEOUT_MS: '1000',
    TCS_TEST_STORE_RETRY_MS: String(STORE_RETRY_MS),
    LOG_LEVEL: 'info',
  };
  return { redis, appendOnly, dir, env, key, api: null, trader: null, look: null };
}

const lines = (proc: RunningProcess) =>
  proc
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { event: string } & Record<string, unknown>);

/** Lines after the last one matching `from`. */
function after(proc: RunningProcess, from: (l: { event: string } & Record<string, unknown>) => boolean) {
  const all = lines(proc);
  const i = all.map(from).lastIndexOf(true);
  return i < 0 ? [] : all.slice(i + 1);
}

/** Waits for a line matching `pattern` among those after the last line matching `from`. */
async function waitAfter(proc: RunningProcess, from: RegExp, pattern: RegExp, timeoutMs: number): Promise<void> {
  await eventually(
    async () => {
      const all = proc.stdout().split('\n');
      const start = all.map((l) => from.test(l)).lastIndexOf(true);
      return start >= 0 && all.slice(start + 1).some((l) => pattern.test(l));
    },
    `${pattern} after ${from}`,
    timeoutMs,
  );
}

async function startTrader(rig: Rig): Promise<RunningProcess> {
  rig.trader = startTcs(['trade'], rig.env, rig.dir);
  await rig.trader.waitFor(/"event":"cycle_start"/, 30_000);
  return rig.trader;
}

async function restingIds(rig: Rig): Promise<string[]> {
  rig.look ??= await openRedisStore({ url: rig.redis.url, timeoutMs: 2000 });
  const portfolio = await readDocument(rig.look.kv, PORTFOLIO_KEY);
  return (portfolio?.openOrders ?? []).filter((o) => o.status === 'open').map((o) => o.clientOrderId);
}

const restingOrders = async (rig: Rig) => (await restingIds(rig)).length;

describe('fail closed (real processes, own redis-server)', () => {
  let rig: Rig | undefined;
  async function closeRig(): Promise<void> {
    await rig?.trader?.stop();
    await rig?.api?.proc.stop();
    await rig?.look?.close().catch(() => {});
    await rig?.redis.cleanup();
    if (rig) rmSync(rig.dir, { recursive: true, force: true });
    rig = undefined;
  }
  afterAll(closeRig, 30_000);
  /** A fresh rig, after ending the one a previous test left. */
  async function freshRig(appendOnly: boolean): Promise<Rig> {
    await closeRig();
    return (rig = await openRig(appendOnly));
  }

  it('a silent control plane halts trading and cancels resting orders; an API back resumes it, audited', async () => {
    const r = await freshRig(false);
    r.api = await startApi(r.env);
    const trader = await startTrader(r);
    await eventually(async () => (await restingOrders(r)) > 0, 'a resting order', 20_000);

    r.api.proc.child.kill('SIGKILL');
    await trader.waitFor(/"event":"trading_halted","reason":"control_plane_lost"/, 15_000);
    await trader.waitFor(/"event":"orders_cancelled","reason":"halt: control_plane_lost"/, 15_000);
    // The account is published right after the cancel's line and audit entry.
    await eventually(async () => (await restingOrders(r)) === 0, 'the published account without resting orders');
    // Alive and halted for at least 4 cycle lengths: its heartbeat moves, its cycles do not.
    const halted = (l: { event: string; reason?: unknown }) =>
      l.event === 'trading_halted' && l.reason === 'control_plane_lost';
    await trader.waitFor(/"event":"orders_cancelled","reason":"halt: control_plane_lost"/);
    const beats: number[] = [];
    await eventually(
      async () => {
        const beat = await readDocument(r.look!.kv, HEARTBEAT_KEY);
        if (beat?.halt === 'control_plane_lost' && beat.ts !== beats.at(-1)) beats.push(beat.ts);
        return beats.length > 1 && beats.at(-1)! - beats[0]! >= 4 * CYCLE_MS;
      },
      'heartbeats spanning four cycle lengths while halted',
      20_000,
    );
    const whileHalted = after(trader, halted);
    expect(whileHalted.filter((l) => l.event === 'order_submitted' || l.event === 'cycle_start')).toEqual([]);

    r.api = await startApi(r.env);
    await waitAfter(trader, /"reason":"control_plane_lost"/, /"event":"trading_halt_ended"/, 15_000);
    await waitAfter(trader, /"event":"trading_halt_ended"/, /"event":"cycle_start"/, 15_000);
    const [halt] = await r.look!.events.query({ kind: 'trading_halt', limit: 1 });
    expect(halt?.body).toMatchObject({ reason: 'control_plane_lost' });
    // Its start was recorded as it began (the store was there), so the notifier told it then.
    const [started] = await r.look!.events.query({ kind: 'trading_halt_started', limit: 1 });
    expect(started?.body).toMatchObject({ reason: 'control_plane_lost', since: halt?.body.since });
    expect(started!.seq).toBeLessThan(halt!.seq);
  }, 90_000);

  // Right after the control-plane test, whose end it starts from: an API and a trader trading on a
  // redis-server without an append-only file (the epoch still 0: a halt is no control change). A
  // rig of its own (three processes and their start-up, a second of CPU) only when run alone or
  // when that test left none running.
  it('a kill survives a store that comes back empty: nothing trades on it, and adoption brings back killed', async () => {
    const running = (p: RunningProcess | null | undefined) =>
      !!p && p.child.exitCode === null && p.child.signalCode === null;
    let r: Rig;
    if (rig && !rig.appendOnly && running(rig.api?.proc) && running(rig.trader)) {
      r = rig;
      await r.look?.close().catch(() => {});
      r.look = null;
    } else {
      r = await freshRig(false);
      r.api = await startApi(r.env);
      await startTrader(r);
    }
    const api = r.api!;
    const trader = r.trader!;
    const kill = await callApi(api.baseUrl, r.key, 'POST', '/control/kill-switch', { reason: 'before the loss' });
    expect(kill.status).toBe(200);
    await trader.waitFor(/"event":"control_changed","state":"killed","epoch":1/);

    await r.redis.restart({ empty: true });
    trader.child.kill('SIGKILL');
    await trader.exited;
    const again = startTcs(['trade'], { ...r.env, ...COUNTED_RETRIES_ENV }, r.dir);
    r.trader = again;
    await again.waitFor(/not trading: the store has no control record/, 30_000);
    // The API remembers the store it served: the empty one is a fault, never `running` at epoch 0.
    const status = await callApi(api.baseUrl, r.key, 'GET', '/control/status');
    expect(status.status).toBe(503);
    // Alive and refusing over several of its own retries of the store, trading nothing meanwhile.
    await expectWaitingWithoutTrading(again, /the store has no control record/);
    expect(lines(again).filter((l) => l.event === 'cycle_start' || l.event === 'order_submitted')).toEqual([]);
    r.look = await openRedisStore({ url: r.redis.url, timeoutMs: 2000 });
    await expect(r.look.control.read()).rejects.toMatchObject({ kind: 'empty' });

    const adopt = startTcs(['store', 'adopt', '--reason', 'redis lost its data'], r.env, r.dir);
    expect((await adopt.exited).code).toBe(0);
    expect(await r.look.control.read()).toMatchObject({ state: 'killed', epoch: 2 });
    await again.waitFor(/"event":"control_changed","state":"killed","epoch":2/, 30_000);
    await eventually(
      async () => (await callApi(api.baseUrl, r.key, 'GET', '/control/status')).body.state === 'killed',
      'the API to serve the adopted store',
    );
    expect((await callApi(api.baseUrl, r.key, 'POST', '/control/resume')).status).toBe(409);
    expect(lines(again).filter((l) => l.event === 'cycle_start' || l.event === 'order_submitted')).toEqual([]);
    const [adopted] = await r.look.events.query({ kind: 'store_adopted', limit: 1 });
    expect(adopted?.body).toMatchObject({ reason: 'redis lost its data', latch: { state: 'killed', epoch: 1 } });
  }, 120_000);

  it('a lost store halts trading after STORE_LOSS_HALT_MS; the store back resumes it and the halt is audited', async () => {
    const r = await freshRig(true);
    r.api = await startApi(r.env);
    const trader = await startTrader(r);
    await eventually(async () => (await restingOrders(r)) > 0, 'a resting order', 20_000);
    const restingBefore = await restingIds(r);
    await r.look!.close();
    r.look = null;

    await r.redis.kill();
    await trader.waitFor(/"event":"trading_halted","reason":"store_unreachable"/, 15_000);
    const haltedAt = lines(trader).length;
    // Nothing can be opened without the store. Proven over a window in which the process was alive
    // and trying: its heartbeat (every 200 ms) failed at least six times, on its own clock.
    const failedBeats = () => (trader.stderr().match(/heartbeat write failed/g) ?? []).length;
    const before = failedBeats();
    await eventually(async () => failedBeats() - before >= 6, 'six failed heartbeats while halted', 20_000);
    expect(
      lines(trader)
        .slice(haltedAt)
        .filter((l) => l.event === 'order_submitted' || l.event === 'cycle_start'),
    ).toEqual([]);

    await r.redis.restart();
    await waitAfter(
      trader,
      /"event":"trading_halted","reason":"store_unreachable"/,
      /"event":"trading_halt_ended"/,
      20_000,
    );
    // What rested when the store went away was cancelled once it was back (new cycles may rest new ones).
    expect((await restingIds(r)).filter((id) => restingBefore.includes(id))).toEqual([]);
    const [halt] = await r
      .look!.events.query({ kind: 'trading_halt', limit: 5 })
      .then((es) => es.filter((e) => e.body.reason === 'store_unreachable'));
    expect(halt?.body).toMatchObject({ reason: 'store_unreachable' });
    expect(await r.look!.events.verify()).toMatchObject({ ok: true });
    const verify = startTcs(['audit', 'verify'], { STORE_URL: r.redis.url }, r.dir);
    expect((await verify.exited).code).toBe(0);
  }, 90_000);
});

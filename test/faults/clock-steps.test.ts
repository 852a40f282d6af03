/**
 * Issue 30, finding 2: a step of the wall clock (an NTP step, a VM restore) must not change what a
 * trading process judges about elapsed time. Real processes on a SQLite file (`tcs api`, `tcs
 * trade`), the trader's wall clock stepped by libfaketime (test/support/faketime.ts) with its
 * monotonic clock left real:
 *  - the API SIGKILLed, the trader halts `control_plane_lost`; its clock steps back an hour. Before,
 *    `now - apiSeenAt` went negative, the halt ended and it traded with no control plane. Now the
 *    silence is measured on its monotonic clock: the halt stays; the step is logged once, shown in
 *    /health and counted in /metrics;
 *  - a forward step of two hours with the API alive is no control-plane loss (a guard: the old code
 *    passed it too, as the beat kept moving): the step is logged as forward and, since this process's
 *    clock is now two hours from the store's, it halts `clock_skew` (every audit entry it would write is
 *    refused); the clock set right again ends the halt and trading goes on;
 *  - a second `tcs trade` whose clock is an hour ahead, beside a healthy trader: before, it read the
 *    holder's SQLite lease as expired by its own wall clock and took it (and traded). Now it may take
 *    the lease only after watching the holder's renewals stand still for a whole lease on its own
 *    monotonic clock: it sees them move and exits 1, and the first trader goes on trading.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import { readDocument } from '../../src/ports/documents.js';
import { generateKey } from '../../src/domain/keys.js';
import { steppableClock } from '../support/faketime.js';
import { startApi, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { endAll, LEASE_REFUSED, scratch, SLOW_BOUND_MS, traderEnv } from './support.js';

/** Lines that say the trader traded or left its halt. */
const TRADED_OR_RESUMED = /"event":"(trading_halt_ended|cycle_start|order_submitted)"/;
/** The trader's diagnostic for a wall-clock step (stderr, never an event line). */
const STEP_LOGGED = /"msg":"the wall clock stepped/;
/** How many of the trader's own heartbeats it is watched for after a step. */
const WATCHED_BEATS = 12;

describe('wall-clock steps on the trading process (libfaketime, real processes, SQLite)', () => {
  const dirs = scratch();
  const procs: RunningProcess[] = [];
  let t: TestStore | undefined;

  afterEach(async () => {
    await endAll(procs.splice(0));
    await t?.cleanup();
    t = undefined;
    dirs.removeAll();
  });

  /**
   * Waits for `count` new trader heartbeats (its own timer, so a loaded machine lengthens the watch
   * instead of shortening it), failing at once when `forbidden` appears in its stdout after `from`.
   */
  async function watchBeats(trader: RunningProcess, count: number, from: number, forbidden: RegExp): Promise<void> {
    const seen = new Set<number>();
    const deadline = Date.now() + SLOW_BOUND_MS;
    while (seen.size <= count) {
      expect(trader.stdout().slice(from), 'it left the halt or traded').not.toMatch(forbidden);
      expect(Date.now(), `fewer than ${count} heartbeats:\n${trader.stderr().slice(-2000)}`).toBeLessThan(deadline);
      const beat = await readDocument(t!.store.kv, HEARTBEAT_KEY).catch(() => null);
      if (beat) seen.add(beat.ts);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(trader.stdout().slice(from), 'it left the halt or traded').not.toMatch(forbidden);
  }

  /** A real API and a trading process on one SQLite store, the trader's wall clock steppable; once it cycles. */
  async function apiAndSteppableTrader() {
    t = await openTestStore('sqlite');
    const env = {
      ...traderEnv(t.url),
      SERVICE_API_KEY: generateKey(),
      API_HEARTBEAT_MS: '200',
      CONTROL_PLANE_TIMEOUT: '1.5',
    };
    const api = await startApi(env, { cwd: dirs.dir('api') });
    procs.push(api.proc);
    const clock = steppableClock(dirs.dir('clock'));
    const trader = startTcs(['trade'], { ...env, ...clock.env }, dirs.dir('trader'));
    procs.push(trader);
    await trader.waitFor(/"event":"cycle_start"/, SLOW_BOUND_MS);
    return { env, api, clock, trader };
  }

  it('a backward step of an hour does not end a control_plane_lost halt; the step is logged once', async () => {
    const { env, api, clock, trader } = await apiAndSteppableTrader();

    api.proc.child.kill('SIGKILL');
    await trader.waitFor(/"event":"trading_halted","reason":"control_plane_lost"/, SLOW_BOUND_MS);
    const halted = trader.stdout().length;
    clock.setOffset(-3600);

    await watchBeats(trader, WATCHED_BEATS, halted, TRADED_OR_RESUMED);
    expect(trader.stderr().match(new RegExp(STEP_LOGGED.source, 'g')), trader.stderr().slice(-2000)).toHaveLength(1);

    // Monitoring sees it: an API back shows the step in /health and counts it in /metrics.
    const again = await startApi(env, { cwd: dirs.dir('api-again') });
    procs.push(again.proc);
    const health = (await (await fetch(`${again.baseUrl}/health`)).json()) as {
      components: { trading_process: { clock_step?: { step_ms: number; at: string } } };
    };
    const step = health.components.trading_process.clock_step;
    expect(step?.step_ms).toBeLessThan(-3_590_000);
    expect(step?.step_ms).toBeGreaterThan(-3_610_000);
    const metrics = await (await fetch(`${again.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/tcs_trading_clock_steps_total\{[^}]*direction="back"[^}]*\} 1\b/);
  }, 120_000);

  it('a forward step of two hours with the API alive is a clock_skew halt, never control_plane_lost; set right, trading goes on', async () => {
    const { clock, trader } = await apiAndSteppableTrader();
    const before = trader.stdout().length;
    clock.setOffset(7200);
    await trader.waitFor(/"event":"trading_halted","reason":"clock_skew"/, SLOW_BOUND_MS);
    expect(trader.stderr()).toMatch(/"msg":"the wall clock stepped forward by 7[12]\d{5} ms/);
    const halted = trader.stdout().length;
    clock.setOffset(0);
    await trader.waitFor(/"event":"trading_halt_ended"/, SLOW_BOUND_MS);
    await watchBeats(trader, 2, halted, /"event":"trading_halted","reason":"control_plane_lost"/);
    expect(trader.stdout().slice(before)).not.toMatch(/"reason":"control_plane_lost"/);
    await trader.waitFor(/"event":"trading_halt_ended"[^]*"event":"cycle_start"/, SLOW_BOUND_MS);
  }, 120_000);

  it("a second trader an hour ahead does not take a healthy trader's SQLite lease", async () => {
    t = await openTestStore('sqlite');
    const env = traderEnv(t.url, { CONTROL_PLANE_TIMEOUT: '0', TRADING_LEASE_MS: '3000', STORE_LOSS_HALT_MS: '1000' });
    const first = startTcs(['trade'], env, dirs.dir('first'));
    procs.push(first);
    await first.waitFor(/"event":"cycle_start"/, SLOW_BOUND_MS);

    const clock = steppableClock(dirs.dir('clock'));
    clock.setOffset(3600);
    const second = startTcs(['trade'], { ...env, ...clock.env }, dirs.dir('second'));
    procs.push(second);
    // Until it exits, it must not trade: a cycle fails the test at once.
    const deadline = Date.now() + SLOW_BOUND_MS;
    while (second.child.exitCode === null) {
      expect(second.stdout(), 'the second trader took the lease and traded').not.toMatch(/"event":"cycle_start"/);
      expect(Date.now(), second.stderr().slice(-2000)).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(second.child.exitCode, second.stderr().slice(-2000)).toBe(1);
    expect(second.stderr()).toMatch(LEASE_REFUSED);
    expect(second.stdout()).not.toMatch(/"event":"(cycle_start|order_submitted)"/);
    // The first one still holds the store: it goes on cycling, its writes not fenced.
    const cycles = (first.stdout().match(/"event":"cycle_start"/g) ?? []).length;
    await first.waitFor(new RegExp(`"event":"cycle_start","cycle":${cycles + 2}\\b`), SLOW_BOUND_MS);
    expect(first.stdout()).not.toMatch(/"event":"trading_halted"/);
  }, 120_000);
});

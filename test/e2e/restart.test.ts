/**
 * End to end: killed survives a full restart of `tcs start`; only `--reset-kill` (outside the API)
 * ends it, and the reset is audited; the children do not outlive a SIGKILLed launcher.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { childPids, isRunning } from '../support/processes.js';
import { STORE_KINDS } from '../support/stores.js';
import { openE2e } from './harness.js';
import type { E2e } from './harness.js';

describe.each(STORE_KINDS)('restarts on %s', (kind) => {
  // One `tcs start` per store serves both tests: the first leaves it running (after --reset-kill),
  // and the second only needs a running launcher to SIGKILL. Starting another one (three Node
  // processes) cost a second of CPU per store. Run alone, or after a failure that left no launcher
  // running, the second starts its own.
  let e: E2e | undefined;
  afterAll(async () => {
    await e?.close();
    e = undefined;
  });
  const state = async () => ((await (await e!.call('GET', '/control/status')).json()) as { state: string }).state;

  it('killed survives a full restart; only --reset-kill ends it, and the reset is audited', async () => {
    e = await openE2e(kind);
    await e.call('POST', '/control/kill-switch', { reason: 'before restart' });
    await e.proc.waitFor(/"event":"control_changed","state":"killed"/);
    await e.proc.stop('SIGTERM');
    expect((await e.proc.exited).code).toBe(0);
    await e.start();
    expect(await state()).toBe('killed');
    await e.proc.stop('SIGTERM');
    await e.start(['--reset-kill', '--reason', 'incident closed']);
    expect(e.proc.stderr()).toContain('--reset-kill: killed → running');
    expect(await state()).toBe('running');
    await e.proc.waitFor(/"event":"cycle_start"/);
    const [reset] = await e.t.store.events.query({ kind: 'kill_reset', limit: 1 });
    expect(reset?.body).toMatchObject({ reason: 'incident closed', from: 'killed', to: 'running' });
  }, 60_000);

  it('children do not outlive a SIGKILLed launcher (no orphan trading on)', async () => {
    if (!e || e.proc.child.exitCode !== null || e.proc.child.signalCode !== null) {
      await e?.close();
      e = await openE2e(kind);
    }
    const launcher = e;
    // The trading process of this launcher: a heartbeat from one of its children (the first test's
    // earlier launchers wrote heartbeats too).
    const tradingPid = await vi.waitFor(
      async () => {
        const pid = (await launcher.heartbeat())?.pid;
        expect(pid !== undefined && childPids(launcher.proc.child.pid!).includes(pid)).toBe(true);
        return pid!;
      },
      { timeout: 10_000, interval: 50 },
    );
    launcher.proc.child.kill('SIGKILL');
    // The child stops cleanly first: a step under way may take up to its settle deadlines (10 s for
    // the cycle, 10 s for the order manager) to reach the event store, which a loaded machine can
    // approach. It must end, not end fast: 30 s.
    await vi.waitFor(() => expect(isRunning(tradingPid)).toBe(false), { timeout: 30_000, interval: 50 });
    await vi.waitFor(
      async () =>
        expect(
          await fetch(`${launcher.base}/health`).then(
            () => 'up',
            () => 'down',
          ),
        ).toBe('down'),
      { timeout: 15_000, interval: 50 },
    );
    expect(await launcher.heartbeat()).toMatchObject({ pid: tradingPid, stopped: true });
  }, 60_000);
});

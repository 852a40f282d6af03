/**
 * End to end: killed survives a full restart of `tcs start`; only `--reset-kill` (outside the API)
 * ends it, and the reset is audited; the children do not outlive a SIGKILLed launcher.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORE_KINDS } from '../support/stores.js';
import { openE2e } from './harness.js';
import type { E2e } from './harness.js';

describe.each(STORE_KINDS)('restarts on %s', (kind) => {
  let e: E2e | undefined;
  afterEach(async () => {
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
    e = await openE2e(kind);
    await vi.waitFor(async () => expect(await e!.heartbeat()).toBeTruthy(), { timeout: 10_000, interval: 100 });
    const tradingPid = (await e.heartbeat())!.pid;
    e.proc.child.kill('SIGKILL');
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
          await fetch(`${e!.base}/health`).then(
            () => 'up',
            () => 'down',
          ),
        ).toBe('down'),
      { timeout: 15_000, interval: 100 },
    );
    expect(await e.heartbeat()).toMatchObject({ pid: tradingPid, stopped: true });
  }, 60_000);
});

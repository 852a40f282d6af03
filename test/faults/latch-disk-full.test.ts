/**
 * Issue 30, finding 9, with the real thing: the trading latch on a tmpfs of its own that the test
 * fills up. The latch used to stop advancing with no word (rollback detection silently off), and a
 * later pause halted the trader as `store_unreachable` (the store was fine). Now a latch that cannot be
 * written is its own halt, `latch_unwritable`, logged; and a trader halt of any reason is visible to
 * monitoring: /health's trading_process is `halted` with the reason (the whole answer `degraded`), and
 * /metrics has `tcs_trading_halt{reason}` at 1 while `tcs_trading_state{state="running"}` is 0. Freed
 * disk space ends the halt, and the latch holds the epoch of the pause.
 *
 * Mounting a tmpfs needs root (CI runs as root); the test fails, never skips, without it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openE2e } from '../e2e/harness.js';
import type { E2e } from '../e2e/harness.js';

interface HealthBody {
  status: string;
  reason?: string;
  components: { trading_process: { status: string; reason?: string } };
}

/** Fills the file system at `dir` until it refuses a byte more. */
function fill(dir: string): void {
  const chunk = Buffer.alloc(4096, 1);
  for (let i = 0; i < 10_000; i++) {
    try {
      writeFileSync(join(dir, `filler-${i}`), chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return;
      throw err;
    }
  }
  throw new Error('the tmpfs never filled up');
}

describe('a latch whose disk is full', () => {
  let e: E2e | undefined;
  let mount = '';
  afterEach(async () => {
    await e?.close();
    e = undefined;
    if (mount) {
      execFileSync('umount', [mount]);
      rmSync(mount, { recursive: true, force: true });
      mount = '';
    }
  });

  it('halts as latch_unwritable, visible on /health and /metrics, and heals when space is freed', async () => {
    mount = mkdtempSync(join(tmpdir(), 'tcs-latch-tmpfs-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tcs-latch-test', mount]);
    const latchDir = join(mount, 'latch');
    mkdirSync(latchDir, { mode: 0o700 });
    const latchPath = join(latchDir, 'trading-latch.json');
    e = await openE2e('sqlite', { TRADING_LATCH_PATH: latchPath, STORE_LOSS_HALT_MS: '1000' });
    await e.proc.waitFor(/"event":"cycle_end"/, 30_000);

    const fillerDir = join(mount, 'filler');
    mkdirSync(fillerDir);
    fill(fillerDir);
    expect((await e.call('POST', '/control/pause', { reason: 'latch disk full' })).status).toBe(200);

    await e.proc.waitFor(/"event":"trading_halted","reason":"latch_unwritable"/, 30_000);
    expect(e.proc.stdout()).not.toMatch(/"event":"trading_halted","reason":"store_unreachable"/);
    expect(e.proc.stderr() + e.proc.stdout()).toMatch(/latch/i);

    await vi.waitFor(
      async () => {
        const body = (await (await fetch(`${e!.base}/health`)).json()) as HealthBody;
        expect(body.status).toBe('degraded');
        expect(body.components.trading_process).toMatchObject({ status: 'halted' });
        expect(body.components.trading_process.reason).toMatch(/latch_unwritable/);
        expect(body.reason).toMatch(/halted \(latch_unwritable\)/);
      },
      { timeout: 15_000, interval: 100 },
    );
    await vi.waitFor(
      async () => {
        const text = await (await fetch(`${e!.base}/metrics`)).text();
        expect(text).toMatch(/tcs_trading_halt\{reason="latch_unwritable",process="trading"\} 1/);
        expect(text).toMatch(/tcs_trading_state\{state="running",process="trading"\} 0/);
        expect(text).toMatch(/tcs_trading_state\{state="halted",process="trading"\} 1/);
      },
      { timeout: 15_000, interval: 100 },
    );

    // Space again: the halt ends by itself and the latch holds the pause's epoch.
    rmSync(fillerDir, { recursive: true, force: true });
    await e.proc.waitFor(/"event":"trading_halt_ended"/, 30_000);
    const latch = JSON.parse(readFileSync(latchPath, 'utf8')) as { stores: Record<string, { state: string }> };
    expect(Object.values(latch.stores).map((l) => l.state)).toEqual(['paused']);
  }, 120_000);
});

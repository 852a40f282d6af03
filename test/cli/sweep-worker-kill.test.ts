/**
 * A BullMQ sweep worker SIGKILLed mid-trial loses nothing: two real `tcs sweep-worker` processes on
 * a real Redis; the first stops dead inside its first trial (TCS_TEST_SWEEP_FREEZE_AT_CYCLE, so the
 * test knows without racing the run that it holds a trial) and is killed by its pid; the trial goes
 * back to the queue when its lock expires, the other worker runs it, and the sweep's results hold
 * every trial exactly once, the killed one with the same figures as a run that was never interrupted.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { deletePrefix, requireRedis, TEST_REDIS_URL } from '../support/redis.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-sweep-kill-'));
const path = (...parts: string[]) => join(root, ...parts);
const prefix = `tcs-sweep-test-${randomBytes(4).toString('hex')}`;
const processes: RunningProcess[] = [];

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop('SIGKILL')));
  await deletePrefix(`${prefix}:`);
  rmSync(root, { recursive: true, force: true });
});

/** Short locks, so a dead worker's trial is taken again within seconds. */
function worker(env: NodeJS.ProcessEnv = {}): RunningProcess {
  const args = ['--queue', TEST_REDIS_URL, '--prefix', prefix, '--lock-seconds', '2', '--stalled-seconds', '1'];
  const proc = startTcs(['sweep-worker', ...args], env, root);
  processes.push(proc);
  return proc;
}

describe('tcs sweep-worker killed mid-trial', () => {
  let sweep: RunningProcess;
  let survivor: RunningProcess;
  let killedTrial: string;
  let killed: RunningProcess;
  const spec = path('spec.json');

  beforeAll(async () => {
    await requireRedis();
    writeFileSync(
      spec,
      JSON.stringify({
        params: { RISK_FRACTION: [0.05, 0.1] },
        env: { SYMBOLS: 'BTCUSDT' },
        data: { seed: 5, cycles: 120 },
        objective: 'total_return',
      }),
    );
    // The first worker alone is there when the trials are queued, so it takes one; it freezes at cycle 20.
    killed = worker({ TCS_TEST_SWEEP_FREEZE_AT_CYCLE: '20' });
    await killed.waitFor(/ready: queue/);
    sweep = startTcs(
      ['sweep', spec, '--out', path('out'), '--queue', TEST_REDIS_URL, '--prefix', prefix, '--quiet'],
      {},
      root,
    );
    processes.push(sweep);
    killedTrial = (await killed.waitFor(/trial (\S+) started/, 30_000))[1]!;
    await killed.waitFor(/frozen mid-trial at cycle 20/, 30_000);
    survivor = worker();
    await survivor.waitFor(/ready: queue/);
    process.kill(killed.child.pid!, 'SIGKILL');
    expect((await killed.exited).signal).toBe('SIGKILL');
  }, 120_000);

  it('completes the sweep: the killed trial runs again on the other worker, and every trial is recorded once', async () => {
    const { code } = await exitWithin(sweep, 90_000);
    expect(sweep.stderr()).toBe('');
    expect(code).toBe(0);
    expect(killed.stderr()).not.toMatch(/done/);
    // The survivor took the killed trial after it stalled, and finished it once.
    expect(survivor.stderr()).toMatch(
      new RegExp(`trial ${killedTrial} started \\(attempt \\d+, after 1 stall\\(s\\)\\)`),
    );
    expect([...survivor.stderr().matchAll(new RegExp(`trial ${killedTrial} done`, 'g'))]).toHaveLength(1);
    const rows = readFileSync(path('out', 'results.csv'), 'utf8').trimEnd().split('\n').slice(1);
    expect(rows.map((r) => r.split(',')[0]).sort()).toEqual(['p1', 'p2']);
  }, 120_000);

  it('records the retried trial with the figures of an uninterrupted run', async () => {
    const local = startTcs(['sweep', spec, '--out', path('local'), '--workers', '1', '--quiet'], {}, root);
    processes.push(local);
    expect((await exitWithin(local, 90_000)).code).toBe(0);
    expect(readFileSync(path('out', 'results.csv'), 'utf8')).toBe(readFileSync(path('local', 'results.csv'), 'utf8'));
  }, 120_000);
});

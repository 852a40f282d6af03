/**
 * Ctrl-C on `tcs sweep` (the whole process group signalled, as a terminal does): the sweep stops
 * taking trials, ends its worker processes, and still writes results.csv and results.html with the
 * trials that finished, then exits 130. Before, the sweep died with nothing written, and its pool
 * started workers again for the trials the Ctrl-C had stopped.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childPids, exitWithin, isRunning, startTcs } from '../support/processes.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-sweep-int-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('tcs sweep: Ctrl-C', () => {
  it('writes the results of the trials done so far, ends its workers and exits 130', async () => {
    const spec = join(root, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        params: { RISK_FRACTION: [0.05, 0.1, 0.15, 0.2] },
        env: { SYMBOLS: 'BTCUSDT' },
        data: { seed: 1, cycles: 4_000 },
        objective: 'total_return',
      }),
    );
    const out = join(root, 'out');
    const sweep = startTcs(
      ['sweep', spec, '--out', out, '--workers', '1', '--quiet'],
      {},
      { cwd: root, detached: true },
    );
    try {
      // The first trial is done and recorded: with one worker, the sweep sends the second trial
      // only after the first one's result reached it (its run directory is made then).
      const deadline = Date.now() + 60_000;
      while (!existsSync(join(out, 'trials', 'p2')) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(existsSync(join(out, 'trials', 'p2'))).toBe(true);
      const workers = childPids(sweep.child.pid!);
      expect(workers.length).toBeGreaterThan(0);
      process.kill(-sweep.child.pid!, 'SIGINT');
      const { code } = await exitWithin(sweep, 30_000);
      expect(code, sweep.stderr()).toBe(130);
      expect(sweep.stderr()).toMatch(/tcs sweep: interrupted: [12] of 4 trials done; their results are in /);
      const rows = readFileSync(join(out, 'results.csv'), 'utf8').trimEnd().split('\n');
      expect(rows[0]).toMatch(/^trial,param_set,/);
      expect(rows.length - 1).toBeGreaterThanOrEqual(1);
      expect(rows.length - 1).toBeLessThan(4);
      expect(rows.slice(1).map((r) => r.split(',')[0])).toContain('p1');
      expect(existsSync(join(out, 'results.html'))).toBe(true);
      // No worker outlives the sweep, and none was started again for the stopped trial.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(workers.filter(isRunning)).toEqual([]);
      expect(existsSync(join(out, 'trials', 'p4'))).toBe(false);
    } finally {
      if (sweep.child.exitCode === null) process.kill(-sweep.child.pid!, 'SIGKILL');
    }
  }, 90_000);
});

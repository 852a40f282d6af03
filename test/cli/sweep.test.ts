/**
 * `tcs sweep` as a user runs it (the real commands, as child processes, in a temporary directory):
 * a 2×2 grid run on the local worker pool and through BullMQ on a real Redis (two real
 * `tcs sweep-worker` processes) gives the same results.csv, each trial run once; a walk-forward
 * sweep runs each fold's in-sample best out of sample; a bad spec is refused with exit 2 naming the
 * field, before anything is written (which spec is refused is checked in this process, the exit code
 * and stderr of a refusal on the real command).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/config.js';
import { runSweep } from '../../src/runtime/sweep/run-sweep.js';
import { parseSweepArgs } from '../../src/runtime/sweep/sweep-options.js';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { deletePrefix, requireRedis, TEST_REDIS_URL } from '../support/redis.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-sweep-'));
const path = (...parts: string[]) => join(root, ...parts);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const GRID = {
  search: 'grid',
  params: { RISK_FRACTION: [0.05, 0.1], NO_TRADE_BAND: { min: 0.1, max: 0.3, step: 0.2 } },
  env: { SYMBOLS: 'BTCUSDT,ETHUSDT' },
  data: { seed: 3, cycles: 120 },
  objective: 'total_return',
};

function specFile(name: string, spec: unknown): string {
  const file = path(name);
  writeFileSync(file, typeof spec === 'string' ? spec : JSON.stringify(spec));
  return file;
}

async function tcs(args: string[], env: NodeJS.ProcessEnv = {}) {
  const proc = startTcs(args, env, root);
  const { code } = await exitWithin(proc, 90_000);
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

const csvRows = (dir: string) => readFileSync(join(dir, 'results.csv'), 'utf8').trimEnd().split('\n');

describe('tcs sweep: a 2×2 grid, locally and through BullMQ', () => {
  const prefix = `tcs-sweep-test-${randomBytes(4).toString('hex')}`;
  const workers: RunningProcess[] = [];
  let local: Awaited<ReturnType<typeof tcs>>;
  let queued: Awaited<ReturnType<typeof tcs>>;

  beforeAll(async () => {
    await requireRedis();
    const spec = specFile('grid.json', GRID);
    local = await tcs(['sweep', spec, '--out', path('local'), '--workers', '2', '--quiet']);
    for (let i = 0; i < 2; i++)
      workers.push(startTcs(['sweep-worker', '--queue', TEST_REDIS_URL, '--prefix', prefix], {}, root));
    await Promise.all(workers.map((w) => w.waitFor(/ready: queue/)));
    queued = await tcs([
      'sweep',
      spec,
      '--out',
      path('queued'),
      '--queue',
      TEST_REDIS_URL,
      '--prefix',
      prefix,
      '--quiet',
    ]);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop('SIGKILL')));
    await deletePrefix(`${prefix}:`);
  });

  it('runs the four combinations locally and writes the ranked results', () => {
    expect(local.stderr).toBe('');
    expect(local.code).toBe(0);
    const rows = csvRows(path('local'));
    expect(rows[0]).toMatch(/^trial,param_set,fold,sample,RISK_FRACTION,NO_TRADE_BAND,partial,total_return,/);
    expect(rows.slice(1).map((r) => r.split(',').slice(0, 6).join(','))).toEqual([
      'p1,p1,,all,0.05,0.1',
      'p2,p2,,all,0.05,0.3',
      'p3,p3,,all,0.1,0.1',
      'p4,p4,,all,0.1,0.3',
    ]);
    // Ranks 1–4, and the printed best is the row ranked 1, with its parameters.
    const header = rows[0]!.split(',');
    const cells = rows.slice(1).map((r) => r.split(','));
    expect(cells.map((c) => Number(c[header.indexOf('rank')])).sort()).toEqual([1, 2, 3, 4]);
    const best = cells.find((c) => c[header.indexOf('rank')] === '1')!;
    expect(local.stdout).toContain(
      `best trial ${best[0]} (total_return ${best[header.indexOf('total_return')]}: RISK_FRACTION=${best[4]} NO_TRADE_BAND=${best[5]})`,
    );
    // The best really is the highest total return.
    const returns = cells.map((c) => Number(c[header.indexOf('total_return')]));
    expect(Number(best[header.indexOf('total_return')])).toBe(Math.max(...returns));
    const html = readFileSync(path('local', 'results.html'), 'utf8');
    expect(html).toMatch(/<th data-col="\d+" class="objective"[^>]*>total_return<\/th>/);
    // Ranked best first, each trial linked to its own report (the local pool keeps them).
    const link = (id: string) => `<a href="trials/${id}/report.html">${id}</a>`;
    const others = cells.filter((c) => c !== best).map((c) => html.indexOf(link(c[0]!)));
    expect(html.indexOf(link(best[0]!))).toBeGreaterThan(0);
    expect(others.every((at) => at > html.indexOf(link(best[0]!)))).toBe(true);
    expect(existsSync(path('local', 'trials', best[0]!, 'report.html'))).toBe(true);
  });

  it('gives the identical results through BullMQ, each trial run once by one of the workers', async () => {
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    expect(readFileSync(path('queued', 'results.csv'), 'utf8')).toBe(
      readFileSync(path('local', 'results.csv'), 'utf8'),
    );
    expect(queued.stdout).toBe(local.stdout);
    const done = workers.flatMap((w) => [...w.stderr().matchAll(/trial (\S+) done/g)].map((m) => m[1]));
    expect(done.sort()).toEqual(['p1', 'p2', 'p3', 'p4']);
    // Each result was read once and its job removed: nothing of the sweep is left in the queue.
    const { Queue } = await import('bullmq');
    const queue = new Queue('trials', { connection: { url: TEST_REDIS_URL }, prefix });
    try {
      expect(await queue.getJobCounts('waiting', 'active', 'completed', 'failed')).toEqual({
        waiting: 0,
        active: 0,
        completed: 0,
        failed: 0,
      });
    } finally {
      await queue.close();
    }
  });
});

describe('tcs sweep --queue without workers', () => {
  it('says that no worker is connected, and waits', async () => {
    const prefix = `tcs-sweep-test-${randomBytes(4).toString('hex')}`;
    const spec = specFile('alone.json', GRID);
    const sweep = startTcs(
      ['sweep', spec, '--out', path('alone'), '--queue', TEST_REDIS_URL, '--prefix', prefix, '--quiet'],
      {},
      root,
    );
    try {
      await sweep.waitFor(/no tcs sweep-worker is connected to \S+ \(prefix tcs-sweep-test-\w+\) yet/);
      expect(sweep.child.exitCode).toBeNull();
    } finally {
      await sweep.stop('SIGKILL');
      await deletePrefix(`${prefix}:`);
    }
  }, 60_000);
});

describe('tcs sweep: walk-forward', () => {
  it("runs every set in sample, then each fold's in-sample best out of sample", async () => {
    const spec = specFile('wf.json', {
      params: { RISK_FRACTION: [0.05, 0.1] },
      env: { SYMBOLS: 'BTCUSDT' },
      data: { cycles: 100 },
      objective: 'total_return',
      walk_forward: [{ in_sample: { seed: 1 }, out_of_sample: { seed: 2 } }],
    });
    const run = await tcs(['sweep', spec, '--out', path('wf'), '--workers', '2', '--quiet']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const rows = csvRows(path('wf')).map((r) => r.split(','));
    const header = rows[0]!;
    const at = (row: string[], name: string) => row[header.indexOf(name)];
    const inSample = rows.filter((r) => at(r, 'sample') === 'in_sample');
    expect(inSample.map((r) => r[0])).toEqual(['f1-is-p1', 'f1-is-p2']);
    const best = inSample.find((r) => at(r, 'rank') === '1')!;
    const oos = rows.filter((r) => at(r, 'sample') === 'out_of_sample');
    expect(oos.map((r) => r[0])).toEqual([`f1-oos-${at(best, 'param_set')}`]);
    expect(at(oos[0]!, 'RISK_FRACTION')).toBe(at(best, 'RISK_FRACTION'));
    // Out of sample is another market (seed 2): its figures differ from the same set's in sample.
    expect(at(oos[0]!, 'total_return')).not.toBe(at(best, 'total_return'));
    expect(run.stdout).toContain(
      `fold 1: best in-sample ${best[0]} (total_return ${at(best, 'total_return')}: RISK_FRACTION=${at(best, 'RISK_FRACTION')}); out-of-sample total_return ${at(oos[0]!, 'total_return')}`,
    );
  }, 90_000);
});

describe('tcs sweep: arguments and spec', () => {
  it('answers --help with the spec format', async () => {
    const run = await tcs(['sweep', '--help']);
    expect(run.code).toBe(0);
    for (const word of ['walk_forward', 'objective', '--queue', '--workers', 'results.csv'])
      expect(run.stdout).toContain(word);
    const worker = await tcs(['sweep-worker', '--help']);
    expect(worker.code).toBe(0);
    expect(worker.stdout).toContain('--lock-seconds');
  });

  it.each([
    [
      'a grid range without a step',
      { ...GRID, params: { RISK_FRACTION: { min: 0.1, max: 0.2 } } },
      'params.RISK_FRACTION.step',
    ],
    ['an unknown objective', { ...GRID, objective: 'profit' }, 'objective.metric'],
    ['a misspelt field', { ...GRID, data: { seed: 3, cylces: 100 } }, 'data.cylces'],
    ['a variable the simulation decides', { ...GRID, params: { STORE_URL: ['a'] } }, 'params.STORE_URL'],
    ['no market to run', { ...GRID, data: { seed: 3 } }, 'data needs "cycles"'],
    ['a random search without trials', { ...GRID, search: 'random' }, 'trials is required'],
    [
      'a value the configuration refuses',
      { ...GRID, params: { RISK_FRACTION: [0.1, 5] } },
      'trial p2 (RISK_FRACTION=5): RISK_FRACTION',
    ],
    ['a strategy that does not exist', { ...GRID, env: { STRATEGIES: 'no_such_strategy' } }, 'no_such_strategy'],
    [
      'a walk-forward generator with an unknown mode',
      {
        ...GRID,
        data: { dir: '.', from: '2024-01-01' },
        walk_forward: { mode: 'sliding', folds: 2, in_sample: '6h', out_of_sample: '2h' },
      },
      'walk_forward.mode must be "rolling" or "anchored"',
    ],
  ])('refuses %s with a ConfigError (exit 2), naming it, before writing anything', async (_, spec, named) => {
    // Which spec is refused, and with which words, is the spec check's logic: run in this process.
    // That a ConfigError leaves the process with exit 2 and its message on stderr is the real
    // command's, proven below with not JSON.
    const out = path(`bad-${randomBytes(3).toString('hex')}`);
    const run = runSweep(
      parseSweepArgs([specFile(`bad-${randomBytes(3).toString('hex')}.json`, spec), '--out', out, '--quiet']),
    );
    await expect(run).rejects.toThrow(ConfigError);
    await expect(run).rejects.toThrow(named);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses not JSON with exit 2, naming it on stderr, before writing anything (the real command)', async () => {
    const out = path(`bad-${randomBytes(3).toString('hex')}`);
    const run = await tcs(['sweep', specFile('bad.json', '{"params": '), '--out', out, '--quiet']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('not valid JSON');
    expect(existsSync(out)).toBe(false);
  });

  it('refuses --out that is not empty, and --workers with --queue', async () => {
    const spec = specFile('ok.json', GRID);
    writeFileSync(path('full'), '');
    const notDir = await tcs(['sweep', spec, '--out', path('full')]);
    expect(notDir.code).toBe(2);
    expect(notDir.stderr).toContain('--out');
    const both = await tcs(['sweep', spec, '--out', path('x'), '--workers', '2', '--queue', TEST_REDIS_URL]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--workers is for the local pool');
  });
});

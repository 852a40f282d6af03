/**
 * Cycle cost before and after, in one run: runs bench/cycle-cost.bench.ts in another checkout (e.g.
 * a worktree of the commit before issue 7) and in this one, alternately (before, after, after,
 * before, …: the order flips every round so a drift of the machine hits both alike), each run in its
 * own process with CYCLE_COST_OUT, then pools each build's samples per symbol count and prints
 * p50/p90/p99/mean, the spread of the per-run medians (the noise), and the ratio after ÷ before.
 * The other checkout gets this tree's cycle-cost.bench.ts (it only adds the JSON output).
 *
 *   node bin/run-ts.mjs bench/cycle-compare.ts DIR
 * CYCLE_COMPARE_ROUNDS (default 5); CYCLE_COMPARE_PROF=DIR adds --cpu-prof, profiles in DIR/before|after.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CycleFigures } from './cycle-cost.bench.js';
import { markdownTable, ms, summarize } from './stats.js';
import { REPO_ROOT } from './support.js';

type Build = 'before' | 'after';

function commitOf(dir: string): string {
  return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
}

async function runOnce(dir: string, out: string, prof?: string): Promise<CycleFigures[]> {
  const flags = prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : [];
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, [...flags, 'bin/run-ts.mjs', 'bench/cycle-cost.bench.ts'], {
      cwd: dir,
      env: { ...process.env, CYCLE_COST_OUT: out },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`cycle-cost in ${dir} exited with ${code}`))));
  });
  return JSON.parse(readFileSync(out, 'utf8')) as CycleFigures[];
}

async function main(): Promise<void> {
  const other = resolve(process.argv[2] ?? '/tmp/before7');
  const rounds = Number(process.env.CYCLE_COMPARE_ROUNDS ?? 5);
  const prof = process.env.CYCLE_COMPARE_PROF;
  copyFileSync(join(REPO_ROOT, 'bench/cycle-cost.bench.ts'), join(other, 'bench/cycle-cost.bench.ts'));
  const dirs: Record<Build, string> = { before: other, after: REPO_ROOT };
  const runs: Record<Build, CycleFigures[][]> = { before: [], after: [] };
  const tmp = mkdtempSync(join(tmpdir(), 'cycle-compare-'));
  try {
    for (let round = 0; round < rounds; round++) {
      const order: Build[] = round % 2 === 0 ? ['before', 'after'] : ['after', 'before'];
      for (const build of order) {
        const figures = await runOnce(dirs[build], join(tmp, `${build}-${round}.json`), prof && join(prof, build));
        runs[build].push(figures);
        const text = figures.map((f) => `${f.symbols} symbols p50 ${ms(f.wall.p50)} p99 ${ms(f.wall.p99)}`).join(', ');
        console.error(`round ${round + 1}/${rounds} ${build}: ${text}`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const symbolCounts = runs.after[0]!.map((f) => f.symbols);
  const rows: string[][] = [];
  const ratios: string[][] = [];
  for (const symbols of symbolCounts) {
    const stats = {} as Record<Build, ReturnType<typeof summarize> & { medians: number[]; orders: number }>;
    for (const build of ['before', 'after'] as Build[]) {
      const per = runs[build].map((r) => r.find((f) => f.symbols === symbols)!);
      const pooled = per.flatMap((f) => f.samples ?? []);
      stats[build] = {
        ...summarize(pooled),
        medians: per.map((f) => f.wall.p50),
        orders: per.reduce((a, f) => a + f.ordersSubmitted, 0) / per.length,
      };
      const s = stats[build];
      rows.push([
        String(symbols),
        `${build} (${commitOf(dirs[build])})`,
        String(per.length),
        String(s.n),
        ms(s.p50),
        ms(s.p90),
        ms(s.p99),
        ms(s.mean),
        `${ms(Math.min(...s.medians))} – ${ms(Math.max(...s.medians))}`,
        s.orders.toFixed(0),
      ]);
    }
    const r = (k: 'p50' | 'p99' | 'mean') => (stats.after[k] / stats.before[k]).toFixed(2);
    ratios.push([String(symbols), r('p50'), r('p99'), r('mean')]);
  }
  console.log(
    markdownTable({
      headers: [
        'symbols',
        'build',
        'runs',
        'cycles pooled',
        'p50',
        'p90',
        'p99',
        'mean',
        'per-run p50 (min – max)',
        'orders submitted per run',
      ],
      rows,
    }),
  );
  console.log('');
  console.log(
    markdownTable({
      headers: ['symbols', 'p50 after ÷ before', 'p99 after ÷ before', 'mean after ÷ before'],
      rows: ratios,
    }),
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

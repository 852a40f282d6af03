/**
 * `tcs sweep` of 16 trials (a 4×4 grid of RISK_FRACTION × NO_TRADE_BAND on the synthetic market,
 * SWEEP_BENCH_CYCLES cycles each, default 2,000): the wall time of the whole command with 1 local
 * worker, with 2 local workers, and through BullMQ (Redis at TEST_REDIS_URL, a fresh prefix) with
 * two `tcs sweep-worker` processes on this machine, interleaved, SWEEP_BENCH_ROUNDS rounds (default
 * 1). The real compiled `tcs`, as a user runs it. The BullMQ workers are started (with the young
 * generation the local pool's children get) before the timed command, as long-lived workers are;
 * the local pool starts its children inside it. The three results.csv must be identical.
 *
 *   node bin/run-ts.mjs bench/sweep.bench.ts
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SIMULATION_NODE_FLAGS } from '../src/runtime/simulate/simulate-process.js';
import { deletePrefix, TEST_REDIS_URL } from '../test/support/redis.js';
import { printResult, REPO_ROOT, runDirectly } from './support.js';
import type { BenchResult } from './support.js';

const CYCLES = Number(process.env.SWEEP_BENCH_CYCLES ?? 2_000);
const ROUNDS = Number(process.env.SWEEP_BENCH_ROUNDS ?? 1);
const TCS = join(REPO_ROOT, 'bin/tcs.mjs');
const SPEC = {
  params: { RISK_FRACTION: [0.05, 0.1, 0.15, 0.2], NO_TRADE_BAND: [0.1, 0.2, 0.3, 0.4] },
  env: { SYMBOLS: 'BTCUSDT,ETHUSDT,SOLUSDT' },
  data: { seed: 1, cycles: CYCLES },
  objective: 'sharpe',
};

type Case = '1 local worker' | '2 local workers' | 'BullMQ, 2 worker processes';

function tcs(args: string[], cwd: string, nodeFlags: readonly string[] = []) {
  const child = spawn(process.execPath, [...nodeFlags, TCS, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

async function timedSweep(args: string[], cwd: string): Promise<number> {
  const started = performance.now();
  const run = tcs(['sweep', join(cwd, 'spec.json'), '--quiet', ...args], cwd);
  const code = await run.exited;
  if (code !== 0) throw new Error(`tcs sweep ${args.join(' ')} exited ${code}: ${run.stderr()}`);
  return (performance.now() - started) / 1000;
}

async function measure(dir: string, prefix: string): Promise<Map<Case, number[]>> {
  const times = new Map<Case, number[]>();
  const add = (c: Case, s: number) => times.set(c, [...(times.get(c) ?? []), s]);
  const workers = [0, 1].map(() =>
    tcs(['sweep-worker', '--queue', TEST_REDIS_URL, '--prefix', prefix], dir, SIMULATION_NODE_FLAGS),
  );
  try {
    for (;;) {
      if (workers.every((w) => /ready: queue/.test(w.stderr()))) break;
      if (workers.some((w) => w.child.exitCode !== null))
        throw new Error(`a worker exited: ${workers.map((w) => w.stderr()).join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (let round = 1; round <= ROUNDS; round++) {
      add('1 local worker', await timedSweep(['--out', join(dir, `w1-${round}`), '--workers', '1'], dir));
      add('2 local workers', await timedSweep(['--out', join(dir, `w2-${round}`), '--workers', '2'], dir));
      add(
        'BullMQ, 2 worker processes',
        await timedSweep(['--out', join(dir, `q-${round}`), '--queue', TEST_REDIS_URL, '--prefix', prefix], dir),
      );
      // A rerun of the same spec would pick up finished jobs: each round's results are removed as read, so none are.
    }
  } finally {
    for (const w of workers) w.child.kill('SIGKILL');
  }
  return times;
}

export async function run(): Promise<BenchResult> {
  execFileSync(process.execPath, [join(REPO_ROOT, 'bin/build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'tcs-sweepbench-'));
  const prefix = `tcs-sweep-bench-${randomBytes(4).toString('hex')}`;
  const started = performance.now();
  writeFileSync(join(dir, 'spec.json'), JSON.stringify(SPEC));
  try {
    const times = await measure(dir, prefix);
    const median = (c: Case) => {
      const s = [...(times.get(c) ?? [])].sort((a, b) => a - b);
      return s[Math.floor(s.length / 2)]!;
    };
    const one = median('1 local worker');
    const two = median('2 local workers');
    const queue = median('BullMQ, 2 worker processes');
    const csv = (name: string) => readFileSync(join(dir, name, 'results.csv'), 'utf8');
    const identical = csv('w1-1') === csv('w2-1') && csv('w2-1') === csv('q-1');
    const rows = (['1 local worker', '2 local workers', 'BullMQ, 2 worker processes'] as Case[]).map((c) => [
      c,
      (times.get(c) ?? []).map((s) => s.toFixed(1)).join(' / '),
      ((16 / median(c)) * 60).toFixed(1),
      (one / median(c)).toFixed(2),
    ]);
    return {
      id: 'sweep',
      title: 'Parameter sweep: 16 trials on 1 and 2 local workers and through BullMQ',
      command: 'node bin/run-ts.mjs bench/sweep.bench.ts',
      method: [
        `\`tcs sweep\` (compiled) of a 4×4 grid, ${CYCLES.toLocaleString('en-US')} cycles per trial on 3 synthetic symbols; wall time of the whole command, ${ROUNDS} round(s), cases interleaved.`,
        'BullMQ: two `tcs sweep-worker` processes (young generation as the local pool children) started before the timed command; Redis on this machine.',
      ],
      tables: [{ headers: ['case', 'wall s (each round)', 'trials/min', 'speed-up vs 1 worker'], rows }],
      figures: [
        {
          figure: '`tcs sweep` of 16 trials: 2 local workers ÷ 1, speed-up',
          aim: '≥ 1.8×',
          latest: `${(one / two).toFixed(2)}× (${one.toFixed(1)} s → ${two.toFixed(1)} s)`,
          met: one / two >= 1.8,
        },
        {
          figure: '`tcs sweep` of 16 trials through BullMQ (2 worker processes) vs the 2-worker local pool',
          aim: 'within 10 %',
          latest: `${queue.toFixed(1)} s vs ${two.toFixed(1)} s`,
          met: queue <= two * 1.1,
        },
      ],
      aims: [
        { text: '2 local workers ≥ 1.8× faster than 1', met: one / two >= 1.8 },
        { text: 'BullMQ with 2 worker processes within 10 % of the 2-worker local pool', met: queue <= two * 1.1 },
      ],
      notes: [
        identical ? 'The three results.csv were byte-identical.' : '**The results.csv differed between cases.**',
        'The machine has 2 cores: a speed-up near 2× needs it otherwise idle; other processes running meanwhile lower it.',
      ],
      seconds: (performance.now() - started) / 1000,
      data: Object.fromEntries(times),
    };
  } finally {
    await deletePrefix(`${prefix}:`);
    rmSync(dir, { recursive: true, force: true });
  }
}

runDirectly(async () => {
  const result = await run();
  printResult(result);
  return result;
});

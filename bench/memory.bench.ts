/**
 * Memory of a long-running trading system: 10,000 cycles at 10 symbols on a SimulatedClock (as in
 * cycle-cost, SQLite store in a temp dir), in a CHILD process started with --expose-gc so nothing
 * else lives in its heap. Every 1000 cycles the child runs gc() and samples RSS and heapUsed; the
 * parent prints the series, the final RSS and the growth from cycle 2000 to the last sample. The
 * child stops early (and says so) past a 5-minute budget. The child role is this same file with
 * TCS_BENCH_ROLE=memory, run twice, one after the other: compiled by tsc (as the service runs, with
 * source maps on) and, for comparison, through tsx (as the service ran before the build existed).
 * The compiled child is this file and its imports compiled into dist/.bench/ (the bench harness is
 * TypeScript too, so dist/ alone cannot run it). MEMORY_RUNTIMES=compiled (or tsx) runs only one;
 * MEMORY_NODE_FLAGS adds Node flags to the children (to try e.g. --optimize-for-size).
 */
import { execFileSync, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PAPER_STATE_KEY } from '../src/adapters/paper-venue/index.js';
import type { PaperStateDocument } from '../src/adapters/paper-venue/index.js';
import { int, mb } from './stats.js';
import { REPO_ROOT, openBenchStore, printResult, runDirectly, sendToParent, withDeadline } from './support.js';
import { TEN_SYMBOLS, openSimulatedTrading } from './trading.js';
import type { BenchResult } from './support.js';

const CYCLES = 10_000;
const EVERY = 1000;
const BUDGET_MS = 300_000;
const AIM_RSS_MB = 150;
/** "No growth": heapUsed after gc grows by less than this from cycle 2000 to the end. */
const HEAP_GROWTH_LIMIT_MB = 2;

export interface MemorySample {
  /** -1: modules loaded, nothing opened yet. */
  cycle: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  elapsedS: number;
  /** Time spent inside cycles only (sampling excluded). */
  cyclingS: number;
  /** Size of the paper venue's stored account (written on every venue operation) and its terminal orders. */
  paperStateBytes: number;
  terminalOrders: number;
}

type FromChild =
  | { type: 'sample'; sample: MemorySample }
  | { type: 'end'; cycles: number; stoppedEarly: boolean }
  | { type: 'error'; message: string };

type Runtime = 'compiled' | 'tsx';

const CHILD_COMMANDS: Record<Runtime, string> = {
  compiled: 'node --expose-gc --enable-source-maps dist/.bench/bench/memory.bench.js',
  tsx: 'node --expose-gc bin/run-ts.mjs bench/memory.bench.ts',
};
const RUNTIME_LABELS: Record<Runtime, string> = {
  compiled: 'compiled (tsc, source maps on)',
  tsx: 'TypeScript through tsx (before)',
};
const BENCH_OUT = join(REPO_ROOT, 'dist/.bench');

/**
 * Compiles this file and everything it imports (bench/, test/support/, src/, machines/) into
 * dist/.bench/ with the production build's settings (tsconfig.build.json: source maps). Incremental,
 * so a second run costs little. Node finds the dependencies from there through the repository's
 * node_modules and treats the .js as ES modules through its package.json, as for dist/.
 */
function compileChild(): string {
  mkdirSync(BENCH_OUT, { recursive: true });
  const config = {
    extends: '../../tsconfig.build.json',
    compilerOptions: { outDir: '.', rootDir: '../..', tsBuildInfoFile: './.tsbuildinfo' },
    files: ['../../bench/memory.bench.ts'],
    include: [],
  };
  writeFileSync(join(BENCH_OUT, 'tsconfig.json'), JSON.stringify(config, null, 2));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(BENCH_OUT, 'tsconfig.json')], { cwd: REPO_ROOT, stdio: 'inherit' });
  return join(BENCH_OUT, 'bench/memory.bench.js');
}

/** Extra Node flags for the children, from MEMORY_NODE_FLAGS (space-separated). */
const EXTRA_FLAGS = (process.env.MEMORY_NODE_FLAGS ?? '').split(' ').filter(Boolean);

function startChild(runtime: Runtime, flags: readonly string[]): ChildProcess {
  const options = {
    env: { ...process.env, TCS_BENCH_ROLE: 'memory' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'] as ('ignore' | 'inherit' | 'ipc')[],
  };
  if (runtime === 'compiled')
    return fork(compileChild(), [], { ...options, execArgv: ['--expose-gc', '--enable-source-maps', ...flags] });
  return fork(join(REPO_ROOT, 'bin/run-ts.mjs'), [join(REPO_ROOT, 'bench/memory.bench.ts')], {
    ...options,
    execArgv: ['--expose-gc', ...flags],
  });
}

export interface ChildRun {
  runtime: Runtime;
  samples: MemorySample[];
  cycles: number;
  stoppedEarly: boolean;
  errors: string[];
}

/** One memory child, start to end: its samples as they arrive, then how it ended. `flags`: extra Node flags. */
export async function runChild(runtime: Runtime, flags: readonly string[] = EXTRA_FLAGS): Promise<ChildRun> {
  const samples: MemorySample[] = [];
  const errors: string[] = [];
  let cycles = 0;
  let stoppedEarly = false;
  let child: ChildProcess;
  try {
    child = startChild(runtime, flags);
  } catch (err) {
    return {
      runtime,
      samples,
      cycles,
      stoppedEarly,
      errors: [`${runtime}: could not start: ${(err as Error).message}`],
    };
  }
  const finished = new Promise<void>((resolve, reject) => {
    child.on('message', (message: FromChild) => {
      if (message.type === 'sample') {
        samples.push(message.sample);
        const s = message.sample;
        console.log(
          `memory (${runtime}): cycle ${s.cycle}: rss ${mb(s.rss)}, heapUsed ${mb(s.heapUsed)}, paper:state ${int(s.paperStateBytes)} B (${s.elapsedS.toFixed(0)} s)`,
        );
      } else if (message.type === 'end') {
        cycles = message.cycles;
        stoppedEarly = message.stoppedEarly;
      } else {
        errors.push(`${runtime} child error: ${message.message}`);
      }
    });
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`memory child exited with code ${code} (signal ${signal})`)),
    );
  });
  try {
    await withDeadline(finished, BUDGET_MS + 60_000, `memory child (${runtime})`);
  } catch (err) {
    child.kill('SIGKILL');
    errors.push((err as Error).message);
  }
  return { runtime, samples, cycles, stoppedEarly, errors };
}

function selectedRuntimes(): Runtime[] {
  const wanted = (process.env.MEMORY_RUNTIMES ?? 'compiled,tsx').split(',').map((r) => r.trim());
  return (['compiled', 'tsx'] as const).filter((r) => wanted.includes(r));
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const runs: ChildRun[] = [];
  for (const runtime of selectedRuntimes()) runs.push(await runChild(runtime));
  // The aims and the series are about the first run: the compiled child unless only tsx was asked for.
  const main = runs[0]!;
  const { samples, cycles, stoppedEarly } = main;
  const notes: string[] = runs.flatMap((r) => r.errors);
  for (const r of runs)
    if (r.stoppedEarly)
      notes.push(`${r.runtime}: stopped after ${r.cycles} cycles: the ${BUDGET_MS / 1000} s budget was used up`);

  const counted = samples.filter((s) => s.cycle >= 0);
  const at2000 = samples.find((s) => s.cycle === 2000);
  const last = samples[samples.length - 1];
  const rssGrowth = at2000 && last ? last.rss - at2000.rss : Number.NaN;
  const heapGrowth = at2000 && last ? last.heapUsed - at2000.heapUsed : Number.NaN;
  const loaded = samples.find((s) => s.cycle === -1);
  if (loaded)
    notes.push(
      `With the modules loaded and nothing opened the ${main.runtime} child already had ${mb(loaded.rss)} RSS (heapUsed ${mb(loaded.heapUsed)}): Node${main.runtime === 'tsx' ? ', tsx' : ''} and the dependencies.`,
    );
  if (at2000 && last && last.terminalOrders > at2000.terminalOrders && Number.isFinite(heapGrowth)) {
    notes.push(
      `From cycle ${int(at2000.cycle)} to ${int(last.cycle)} the paper venue's kept terminal orders went from ${int(at2000.terminalOrders)} to ${int(last.terminalOrders)} ` +
        `(the stored account from ${int(at2000.paperStateBytes / 1024)} KB to ${int(last.paperStateBytes / 1024)} KB, rewritten on every venue operation); ` +
        `heapUsed grew ${int(heapGrowth / (last.terminalOrders - at2000.terminalOrders))} bytes per order kept. The two rise together; if that history is the cause, the growth stops only at maxTerminalOrders (default 10,000 terminal orders).`,
    );
  }
  const first = counted.find((s) => s.cycle === EVERY);
  if (first && last && last.cycle > EVERY) {
    const rate = (a: MemorySample, b: MemorySample) => ((b.cyclingS - a.cyclingS) * 1000) / (b.cycle - a.cycle);
    const start = rate(counted[0]!, first);
    const end = rate(counted[counted.length - 2]!, last);
    notes.push(
      `Mean cycle time went from ${start.toFixed(2)} ms (cycles 1–${int(EVERY)}) to ${end.toFixed(2)} ms (the last interval).`,
    );
  }
  const result: BenchResult = {
    id: 'memory',
    title: `Memory: trading system over ${int(CYCLES)} cycles at 10 symbols`,
    command: 'node bin/run-ts.mjs bench/memory.bench.ts',
    method: [
      `A child process runs the trading system as in cycle-cost (10 symbols, SimulatedClock, SQLite temp store, no-op event lines), with TCS_BENCH_ROLE=memory: ${runs.map((r) => `${RUNTIME_LABELS[r.runtime]}: \`${CHILD_COMMANDS[r.runtime]}\``).join('; then ')}. The compiled child is this file and its imports compiled by tsc with tsconfig.build.json's settings into dist/.bench/. The series is the ${main.runtime} child's.${EXTRA_FLAGS.length ? ` Extra Node flags (MEMORY_NODE_FLAGS): ${EXTRA_FLAGS.join(' ')}.` : ''}`,
      `Samples right after global.gc() (process.memoryUsage()): once with the modules loaded and nothing opened, at cycle 0 (first cycle settled), then every ${EVERY} cycles. "ms per cycle" is the mean wall time over the interval before the sample; the paper:state columns are read from the store (the venue rewrites that document on every operation).`,
      `"No growth" here means heapUsed after gc grows by less than ${HEAP_GROWTH_LIMIT_MB} MB from cycle 2000 to the last sample; RSS also holds SQLite's page cache, which grows with the database file up to its cache size.`,
    ],
    tables: [
      {
        caption: 'Series, after gc',
        headers: [
          'cycle',
          'RSS',
          'heapUsed',
          'heapTotal',
          'external',
          'ms per cycle',
          'paper:state',
          'terminal orders kept',
          'elapsed',
        ],
        rows: samples.map((s, i) => {
          const previous = i > 0 ? samples[i - 1] : undefined;
          const perCycle =
            previous && previous.cycle >= 0 && s.cycle > previous.cycle
              ? ((s.cyclingS - previous.cyclingS) * 1000) / (s.cycle - previous.cycle)
              : Number.NaN;
          return [
            s.cycle < 0 ? 'modules loaded' : int(s.cycle),
            mb(s.rss),
            mb(s.heapUsed),
            mb(s.heapTotal),
            mb(s.external),
            Number.isFinite(perCycle) ? perCycle.toFixed(2) : '',
            s.cycle < 0 ? '' : `${int(s.paperStateBytes / 1024)} KB`,
            s.cycle < 0 ? '' : int(s.terminalOrders),
            `${s.elapsedS.toFixed(0)} s`,
          ];
        }),
      },
      {
        caption: 'Summary',
        headers: [
          'runtime',
          'cycles run',
          'final RSS',
          'RSS growth 2000 → last',
          'heapUsed growth 2000 → last',
          'heap bytes per cycle',
        ],
        rows: runs.map((r) => {
          const from = r.samples.find((x) => x.cycle === 2000);
          const to = r.samples[r.samples.length - 1];
          const heap = from && to ? to.heapUsed - from.heapUsed : Number.NaN;
          const rss = from && to ? to.rss - from.rss : Number.NaN;
          const bytesPerCycle = from && to && to.cycle > from.cycle ? heap / (to.cycle - from.cycle) : Number.NaN;
          return [
            RUNTIME_LABELS[r.runtime],
            int(r.cycles),
            to ? mb(to.rss) : 'n/a',
            Number.isFinite(rss) ? mb(rss) : 'n/a',
            Number.isFinite(heap) ? mb(heap) : 'n/a',
            Number.isFinite(bytesPerCycle) ? int(bytesPerCycle) : 'n/a',
          ];
        }),
      },
    ],
    figures: [
      {
        figure: `trading process RSS after 10,000 cycles at 10 symbols (${main.runtime})`,
        aim: `< ${AIM_RSS_MB} MB`,
        latest: last ? mb(last.rss) : 'not measured',
        met: last ? last.rss < AIM_RSS_MB * 1024 * 1024 : null,
      },
      {
        figure: `trading process heap growth, cycle 2,000 → 10,000 (${main.runtime})`,
        aim: `< ${HEAP_GROWTH_LIMIT_MB} MB`,
        latest: Number.isFinite(heapGrowth) ? mb(heapGrowth) : 'not measured',
        met: Number.isFinite(heapGrowth) ? heapGrowth < HEAP_GROWTH_LIMIT_MB * 1024 * 1024 : null,
      },
    ],
    aims: [
      {
        text: `final RSS < ${AIM_RSS_MB} MB, ${main.runtime} (measured ${last ? mb(last.rss) : 'n/a'})`,
        met: last ? last.rss < AIM_RSS_MB * 1024 * 1024 : null,
      },
      {
        text: `no heap growth from cycle 2000 (measured ${Number.isFinite(heapGrowth) ? mb(heapGrowth) : 'n/a'})`,
        met: Number.isFinite(heapGrowth) ? heapGrowth < HEAP_GROWTH_LIMIT_MB * 1024 * 1024 : null,
      },
    ],
    notes,
    seconds: (performance.now() - started) / 1000,
    data: { cycles, samples: counted, rssGrowth, heapGrowth, stoppedEarly, runs },
  };
  printResult(result);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Child role

async function memoryChild(): Promise<void> {
  const send = (message: FromChild) => process.send?.(message);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the memory child with --expose-gc');
  const began = performance.now();
  let bench: Awaited<ReturnType<typeof openBenchStore>> | null = null;
  let cyclingMs = 0;
  const sample = async (cycle: number) => {
    const doc = bench && cycle >= 0 ? ((await bench.store.kv.get(PAPER_STATE_KEY)) as PaperStateDocument | null) : null;
    const paperStateBytes = doc ? Buffer.byteLength(JSON.stringify(doc)) : 0;
    const terminalOrders = doc?.done.length ?? 0;
    gc();
    const m = process.memoryUsage();
    const elapsedS = cycle < 0 ? 0 : (performance.now() - began) / 1000;
    send({
      type: 'sample',
      sample: {
        cycle,
        rss: m.rss,
        heapUsed: m.heapUsed,
        heapTotal: m.heapTotal,
        external: m.external,
        elapsedS,
        cyclingS: cyclingMs / 1000,
        paperStateBytes,
        terminalOrders,
      },
    });
  };
  await sample(-1);
  bench = await openBenchStore('sqlite');
  let cycles = 0;
  let stoppedEarly = false;
  try {
    const trading = await openSimulatedTrading(bench.store, bench.url, { SYMBOLS: TEN_SYMBOLS });
    try {
      await sample(0);
      while (cycles < CYCLES) {
        const t0 = performance.now();
        await trading.cycle();
        cyclingMs += performance.now() - t0;
        cycles++;
        if (cycles % EVERY === 0) await sample(cycles);
        if (performance.now() - began > BUDGET_MS) {
          stoppedEarly = true;
          if (cycles % EVERY !== 0) await sample(cycles);
          break;
        }
      }
    } finally {
      await trading.system.stop('benchmark over');
    }
  } finally {
    await bench.cleanup();
  }
  await sendToParent({ type: 'end', cycles, stoppedEarly } satisfies FromChild);
}

if (process.env.TCS_BENCH_ROLE === 'memory') {
  // Never outlive the parent (its IPC channel closes when it exits).
  process.on('disconnect', () => process.exit(0));
  memoryChild().then(
    () => process.exit(0),
    async (err: unknown) => {
      await sendToParent({ type: 'error', message: String((err as Error).stack ?? err) } satisfies FromChild);
      process.exit(1);
    },
  );
}

runDirectly(run);

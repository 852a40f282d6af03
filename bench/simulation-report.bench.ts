/**
 * What the performance tracker and the run recorder cost a simulation run, per cycle, over 500,000
 * generated cycles (2 symbols, about one fill per 50 cycles and symbol): the tracker alone, then the
 * recorder (tracker + trades.csv and equity.csv streamed to a temp dir), and the final summary and
 * report. The observations are generated in chunks of 10,000 before each timed chunk, so only the
 * tracker's work is timed. heapUsed is sampled after a forced gc every 100,000 cycles: flat memory
 * means those samples do not grow with the cycle count. The machine is shared, so the aim is judged
 * on this process's CPU time per cycle; wall time (mean, and the median of the chunks) is beside it.
 *   node bin/run-ts.mjs bench/simulation-report.bench.ts
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openRunRecorder } from '../src/adapters/simulation-report/run-recorder.js';
import { createPerformanceTracker } from '../src/domain/performance/tracker.js';
import { syntheticRun } from '../test/domain/performance/synthetic-run.js';
import type { RunEvent } from '../test/domain/performance/synthetic-run.js';
import { mb } from './stats.js';
import { printResult, runDirectly } from './support.js';
import type { BenchResult } from './support.js';

const CYCLES = Number(process.env.REPORT_BENCH_CYCLES ?? 500_000);
const CHUNK = 10_000;
const SAMPLE_EVERY = 100_000;
/** The tracker: "a few µs". The recorder: at most 5 % of a cycle at the simulator's 5,000 cycles/s. */
const AIM_TRACKER_US = 5;
const AIM_RECORDER_US = 10;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

interface Sink {
  cycle: (obs: Extract<RunEvent, { type: 'cycle' }>['obs']) => unknown;
  trade: (t: Extract<RunEvent, { type: 'trade' }>['trade']) => unknown;
  denial: (guard: string) => unknown;
}

interface Track {
  name: string;
  usPerCycle: number;
  /** Median over the chunks of µs per cycle: less moved by other processes on a shared machine. */
  p50: number;
  /** CPU time (user + system) of this process per cycle: what the work costs, whoever else runs. */
  cpuUs: number;
  fills: number;
  heap: number[];
  finishMs: number;
  note: string;
}

function drive(name: string, sink: Sink, finish: () => string): Track {
  const events = syntheticRun({ cycles: CYCLES, seed: 1, tradeChance: 0.02 });
  const heap: number[] = [];
  let timed = 0;
  const perChunk: number[] = [];
  let cpuUs = 0;
  let fills = 0;
  for (let done = 0; done < CYCLES;) {
    const chunk: RunEvent[] = [];
    for (let cycles = 0; cycles < CHUNK;) {
      const next = events.next();
      if (next.done) break;
      chunk.push(next.value);
      if (next.value.type === 'cycle') cycles += 1;
      else if (next.value.type === 'trade') fills += 1;
    }
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (const e of chunk) {
      if (e.type === 'cycle') sink.cycle(e.obs);
      else if (e.type === 'trade') sink.trade(e.trade);
      else sink.denial(e.guard);
    }
    const chunkMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    cpuUs += used.user + used.system;
    timed += chunkMs;
    perChunk.push((chunkMs * 1000) / CHUNK);
    done += CHUNK;
    if (done % SAMPLE_EVERY === 0) {
      gc();
      heap.push(process.memoryUsage().heapUsed);
    }
  }
  const started = performance.now();
  const note = finish();
  perChunk.sort((a, b) => a - b);
  const p50 = perChunk[Math.floor(perChunk.length / 2)] ?? Number.NaN;
  return {
    name,
    usPerCycle: (timed * 1000) / CYCLES,
    p50,
    cpuUs: cpuUs / CYCLES,
    fills,
    heap,
    finishMs: performance.now() - started,
    note,
  };
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const options = { startingCash: 10_000, cycleMs: 60_000, symbols: ['BTCUSDT', 'ETHUSDT'], strategies: ['a', 'b'] };
  const tracker = createPerformanceTracker(options);
  const trackerOnly = drive('tracker', tracker, () => {
    tracker.summary();
    tracker.series();
    return 'summary() + series()';
  });

  const dir = mkdtempSync(join(tmpdir(), 'tcs-report-bench-'));
  const recorder = openRunRecorder({ ...options, dir });
  const withFiles = drive('recorder (tracker + CSV streams)', recorder, () => {
    recorder.finish();
    const size = (path: string) => mb(statSync(path).size);
    return `finish(): equity.csv ${size(recorder.files.equity)}, trades.csv ${size(recorder.files.trades)}, report.html ${size(recorder.files.report)}`;
  });
  rmSync(dir, { recursive: true, force: true });

  const tracks = [trackerOnly, withFiles];
  const result: BenchResult = {
    id: 'simulation-report',
    title: `Simulation results: tracker and recorder cost per cycle (${CYCLES.toLocaleString('en-US')} cycles)`,
    command: 'node bin/run-ts.mjs bench/simulation-report.bench.ts',
    method: [
      'syntheticRun (test/domain/performance) generates cycles and fills in chunks of 10,000; only feeding them to the sink is timed.',
      `heapUsed after a forced gc every ${SAMPLE_EVERY.toLocaleString('en-US')} cycles.`,
    ],
    tables: [
      {
        headers: [
          'sink',
          'µs per cycle (mean)',
          'p50 of 10k-cycle chunks',
          'CPU µs per cycle',
          'fills',
          `heapUsed every ${SAMPLE_EVERY / 1000}k cycles`,
          'end of run',
          'what the end wrote',
        ],
        rows: tracks.map((t) => [
          t.name,
          t.usPerCycle.toFixed(2),
          t.p50.toFixed(2),
          t.cpuUs.toFixed(2),
          String(t.fills),
          t.heap.map(mb).join(' → '),
          `${t.finishMs.toFixed(0)} ms`,
          t.note,
        ]),
      },
    ],
    figures: tracks.map((t, i) => {
      const aim = i === 0 ? AIM_TRACKER_US : AIM_RECORDER_US;
      return {
        figure: `simulation report, ${t.name}: CPU per cycle`,
        aim: `< ${aim} µs`,
        latest: `${t.cpuUs.toFixed(2)} µs (wall p50 ${t.p50.toFixed(2)} µs)`,
        met: t.cpuUs < aim,
      };
    }),
    aims: tracks.map((t, i) => {
      const aim = i === 0 ? AIM_TRACKER_US : AIM_RECORDER_US;
      return {
        text: `${t.name}: < ${aim} µs CPU per cycle (measured ${t.cpuUs.toFixed(2)}, wall p50 ${t.p50.toFixed(2)})`,
        met: t.cpuUs < aim,
      };
    }),
    notes: [],
    seconds: (performance.now() - started) / 1000,
    data: tracks,
  };
  printResult(result);
  return result;
}

runDirectly(run);

/**
 * Which V8 flags bring the compiled trading process under the 150 MB aim without slowing its cycles?
 * Runs memory.bench.ts's compiled child (10,000 cycles at 10 symbols, SimulatedClock, SQLite temp
 * store) once per flag set, the sets in turn and the whole list MEMORY_FLAGS_ROUNDS times (default 2,
 * the order reversed every other round so a drift of the machine hits all alike), and prints per set
 * the final RSS (after gc), the peak of the sampled RSS, heapTotal, and the mean cycle time, beside
 * the default (no extra flag).
 *
 *   node bin/run-ts.mjs bench/memory-flags.ts
 * MEMORY_FLAG_SETS: ';'-separated flag sets (default below; an empty set is the default build).
 */
import { markSuite } from './support.js';
import { markdownTable, mb } from './stats.js';

markSuite();
const { runChild } = await import('./memory.bench.js');

const DEFAULT_SETS = [
  '',
  '--max-semi-space-size=1',
  '--max-semi-space-size=2',
  '--max-semi-space-size=4',
  '--max-semi-space-size=2 --max-old-space-size=64',
  '--optimize-for-size',
];

const sets = (process.env.MEMORY_FLAG_SETS?.split(';') ?? DEFAULT_SETS).map((s) => s.trim());
const rounds = Number(process.env.MEMORY_FLAGS_ROUNDS ?? 2);

interface Outcome {
  finalRss: number;
  peakRss: number;
  heapTotal: number;
  meanMs: number;
  cycles: number;
}
const results = new Map<string, Outcome[]>(sets.map((s) => [s, []]));

for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? sets : [...sets].reverse();
  for (const set of order) {
    const run = await runChild('compiled', set.split(' ').filter(Boolean));
    const last = run.samples[run.samples.length - 1];
    if (!last || run.errors.length > 0) {
      console.error(`flags "${set}": ${run.errors.join('; ') || 'no samples'}`);
      continue;
    }
    const outcome = {
      finalRss: last.rss,
      peakRss: Math.max(...run.samples.map((s) => s.rss)),
      heapTotal: last.heapTotal,
      meanMs: (last.cyclingS * 1000) / Math.max(1, run.cycles),
      cycles: run.cycles,
    };
    results.get(set)!.push(outcome);
    console.error(
      `round ${round + 1}/${rounds} "${set || 'default'}": final RSS ${mb(outcome.finalRss)}, mean ${outcome.meanMs.toFixed(2)} ms per cycle`,
    );
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const base = mean(results.get('')?.map((o) => o.meanMs) ?? []);
const rows = sets.map((set) => {
  const os = results.get(set)!;
  const cycleMs = mean(os.map((o) => o.meanMs));
  return [
    set ? `\`${set}\`` : 'default (no extra flag)',
    String(os.length),
    os.map((o) => mb(o.finalRss)).join(', '),
    mb(Math.max(...os.map((o) => o.peakRss))),
    mb(mean(os.map((o) => o.heapTotal))),
    os.map((o) => o.meanMs.toFixed(2)).join(', '),
    base > 0 ? `${((cycleMs / base - 1) * 100).toFixed(0)} %` : 'n/a',
  ];
});
console.log(
  markdownTable({
    headers: [
      'trading child flags (besides --enable-source-maps)',
      'runs',
      'final RSS (each run)',
      'largest sampled RSS',
      'heapTotal at end (mean)',
      'mean ms per cycle (each run)',
      'cycle time vs default',
    ],
    rows,
  }),
);
process.exit(0);

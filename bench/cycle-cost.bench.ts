/**
 * Wall time of one full trading cycle: the whole actor system (createTradingSystem, default
 * strategies = 2 agents) on a SQLite store in a temp dir, a SimulatedClock as both `clock` and
 * `timers`, backgroundTimers off, a no-op event-line sink. Each cycle is triggered with
 * clock.increment(cycleMs) and timed with performance.now() until system.settled() (market loaded,
 * agents, arbiter, allocator, risk, order manager, decision appended to the event store, portfolio
 * published). 10 symbols over 500 cycles, and 100 generated symbols over 200 cycles.
 * CYCLE_COST_OUT=FILE also writes the figures with every sample as JSON (for cycle-compare.ts).
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { int, ms, summarize } from './stats.js';
import type { Summary } from './stats.js';
import { gcText, openBenchStore, printResult, runDirectly, watchGc } from './support.js';
import { TEN_SYMBOLS, generatedSymbols, openSimulatedTrading } from './trading.js';
import type { BenchResult, GcStats } from './support.js';

const AIM_P99_MS = 5;
const CASES = [
  { symbols: 10, spec: TEN_SYMBOLS, cycles: 500, warmup: 50 },
  { symbols: 100, spec: generatedSymbols(100), cycles: 200, warmup: 20 },
];

export interface CycleFigures {
  symbols: number;
  cycles: number;
  wall: Summary;
  decisionsAppended: number;
  outcomes: Record<string, number>;
  ordersSubmitted: number;
  gc: GcStats;
  /** Every counted cycle's wall time, ms (only in the JSON output). */
  samples?: number[];
}

async function measure(symbols: number, spec: string, cycles: number, warmup: number): Promise<CycleFigures> {
  const bench = await openBenchStore('sqlite');
  const samples: number[] = [];
  const outcomes: Record<string, number> = {};
  let ordersSubmitted = 0;
  let decisionsAppended = 0;
  let gc: GcStats = { count: 0, totalMs: 0, maxMs: 0 };
  try {
    const trading = await openSimulatedTrading(bench.store, bench.url, { SYMBOLS: spec });
    try {
      for (let i = 0; i < warmup; i++) await trading.cycle();
      const eventsBefore = await bench.store.events.count();
      const watcher = watchGc();
      for (let i = 0; i < cycles; i++) {
        const t0 = performance.now();
        await trading.cycle();
        samples.push(performance.now() - t0);
        const last = trading.system.actor.getSnapshot().context.lastCycle;
        const outcome = last?.outcome ?? 'none';
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
        ordersSubmitted += last?.outcomes.filter((o) => o.status === 'submitted').length ?? 0;
      }
      gc = await watcher.stop();
      decisionsAppended = (await bench.store.events.count()) - eventsBefore;
    } finally {
      await trading.system.stop('benchmark over');
    }
  } finally {
    await bench.cleanup();
  }
  return {
    symbols,
    cycles: samples.length,
    wall: summarize(samples),
    decisionsAppended,
    outcomes,
    ordersSubmitted,
    gc,
    samples,
  };
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const figures: CycleFigures[] = [];
  for (const c of CASES) figures.push(await measure(c.symbols, c.spec, c.cycles, c.warmup));
  if (process.env.CYCLE_COST_OUT) writeFileSync(process.env.CYCLE_COST_OUT, JSON.stringify(figures));
  for (const f of figures) delete f.samples;
  const notes: string[] = [];
  for (const f of figures) {
    if (f.decisionsAppended < f.cycles)
      notes.push(`${f.symbols} symbols: only ${f.decisionsAppended} events appended for ${f.cycles} cycles`);
    if ((f.outcomes.completed ?? 0) !== f.cycles)
      notes.push(`${f.symbols} symbols: cycle outcomes ${JSON.stringify(f.outcomes)}`);
  }
  const ten = figures.find((f) => f.symbols === 10);
  const result: BenchResult = {
    id: 'cycle-cost',
    title: 'Cycle cost: one full cycle of the actor system (simulated clock, SQLite)',
    command: 'node bin/run-ts.mjs bench/cycle-cost.bench.ts',
    method: [
      'createTradingSystem with the default strategies (2 agents), default risk settings and ORDER_STYLE, CYCLE_SECONDS=60, a SimulatedClock as clock and timers, backgroundTimers: false, no-op event lines, SQLite store in a temp dir.',
      'Per cycle: clock.increment(cycleMs) then await system.settled(); wall time with performance.now(). Warm-up cycles (50 / 20) are not counted.',
    ],
    tables: [
      {
        headers: [
          'symbols',
          'cycles',
          'p50',
          'p90',
          'p99',
          'max',
          'mean',
          'events appended',
          'orders submitted',
          'GC in process',
        ],
        rows: figures.map((f) => [
          String(f.symbols),
          int(f.cycles),
          ms(f.wall.p50),
          ms(f.wall.p90),
          ms(f.wall.p99),
          ms(f.wall.max),
          ms(f.wall.mean),
          int(f.decisionsAppended),
          int(f.ordersSubmitted),
          gcText(f.gc),
        ]),
      },
    ],
    figures: figures.map((f) => ({
      figure: `cycle p99, ${f.symbols} symbols (simulated clock, SQLite)`,
      aim: f.symbols === 10 ? `< ${AIM_P99_MS} ms` : '—',
      latest: `${ms(f.wall.p99)} (p50 ${ms(f.wall.p50)})`,
      met: f.symbols === 10 ? f.wall.p99 < AIM_P99_MS : null,
    })),
    aims: [
      {
        text: `10 symbols: cycle p99 < ${AIM_P99_MS} ms (measured ${ten ? ms(ten.wall.p99) : 'n/a'})`,
        met: ten ? ten.wall.p99 < AIM_P99_MS : null,
      },
    ],
    notes,
    seconds: (performance.now() - started) / 1000,
    data: figures,
  };
  printResult(result);
  return result;
}

runDirectly(run);

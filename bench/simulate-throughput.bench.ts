/**
 * `tcs simulate` throughput, in cycles per second of the cycle loop (runSimulation, as the command
 * runs it: the whole actor system, the run's SQLite event store, the report recorder), beside a plain
 * loop over the same domain functions without actors or a store (plain-loop.ts), in the same run, for
 * 2 agents × 3 symbols and × 5 symbols on 1-minute steps. Five, not the ten of its first runs: `tcs
 * simulate` trades only markets the synthetic market knows (d2ee5d9), and it knows five; this measures
 * what the command can run, so its rows for 10 symbols are not continued. Then the heap and RSS every
 * 50,000 cycles of one long run (SIM_BENCH_MEMORY_CYCLES, default 500,000; 0 skips it), to see that memory stays
 * flat. SIM_BENCH_CYCLES (default 20,000) sets the throughput runs' length.
 *
 * `tcs simulate` runs the simulation in a child process with its own young-generation size
 * (SIMULATION_NODE_FLAGS in simulate-process.ts); this benchmark runs it in its own process, so give
 * it the same flags — on the command line alone, or in NODE_OPTIONS under the harness:
 *
 *   node --expose-gc --max-semi-space-size=8 bin/run-ts.mjs bench/simulate-throughput.bench.ts
 *   NODE_OPTIONS='--expose-gc --max-semi-space-size=8' npm run bench -- --only simulate-throughput.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SYNTHETIC_SYMBOLS } from '../src/adapters/market-data/index.js';
import { generateKey } from '../src/domain/keys.js';
import { readTradingConfig } from '../src/runtime/trading/trading-config.js';
import { runSimulation } from '../src/runtime/simulate/run-simulation.js';
import type { SimulateOptions } from '../src/runtime/simulate/simulate-options.js';
import { SIMULATION_NODE_FLAGS, youngGenerationChosen } from '../src/runtime/simulate/simulate-process.js';
import { runPlainLoop } from './plain-loop.js';
import { int, mb } from './stats.js';
import { printResult, runDirectly } from './support.js';
import type { BenchResult } from './support.js';

const CYCLES = Number(process.env.SIM_BENCH_CYCLES ?? 20_000);
const MEMORY_CYCLES = Number(process.env.SIM_BENCH_MEMORY_CYCLES ?? 500_000);
const AIM_RATE = 5_000;
const AIM_RATIO = 0.3;
const CASES = [
  { symbols: 3, spec: 'BTCUSDT,ETHUSDT,SOLUSDT' },
  { symbols: SYNTHETIC_SYMBOLS.length, spec: SYNTHETIC_SYMBOLS.join(',') },
];

function options(out: string, cycles: number, symbols: string): SimulateOptions {
  return {
    out,
    cycles,
    seed: 1,
    data: null,
    from: null,
    to: null,
    strategies: null,
    symbols,
    cash: null,
    cycleSeconds: null,
    quiet: true,
  };
}

async function simulate(cycles: number, symbols: string, afterCycle?: (done: number) => void) {
  const out = mkdtempSync(join(tmpdir(), 'tcs-simbench-'));
  const silent = process.stdout.write.bind(process.stdout);
  // The summary table goes to stdout; the benchmark prints its own.
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    return await runSimulation({ LOG_LEVEL: 'silent' }, options(join(out, 'run'), cycles, symbols), afterCycle);
  } finally {
    process.stdout.write = silent;
    rmSync(out, { recursive: true, force: true });
  }
}

interface Throughput {
  symbols: number;
  simulate: number;
  plain: number;
  orders: number;
}

interface MemorySample {
  cycles: number;
  heapMb: number;
  rssMb: number;
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const rows: Throughput[] = [];
  for (const c of CASES) {
    const sim = await simulate(CYCLES, c.spec);
    const config = readTradingConfig({ RISK_HMAC_SECRET: generateKey(), SYMBOLS: c.spec, MARKET_SEED: '1' });
    const plain = await runPlainLoop(config, CYCLES);
    rows.push({
      symbols: c.symbols,
      simulate: sim.cycles / (sim.loopMs / 1000),
      plain: plain.cycles / (plain.wallMs / 1000),
      orders: plain.orders,
    });
  }
  const memory: MemorySample[] = [];
  if (MEMORY_CYCLES > 0) {
    const every = 50_000;
    await simulate(MEMORY_CYCLES, CASES[0]!.spec, (done) => {
      if (done % every !== 0) return;
      global.gc?.();
      const m = process.memoryUsage();
      memory.push({ cycles: done, heapMb: m.heapUsed / 2 ** 20, rssMb: m.rss / 2 ** 20 });
    });
  }
  const three = rows.find((r) => r.symbols === 3);
  const result: BenchResult = {
    id: 'simulate-throughput',
    title: 'Simulation throughput: tcs simulate beside a plain loop of the same domain functions',
    // The lengths given in the environment are part of what was measured.
    command: [
      ...['SIM_BENCH_CYCLES', 'SIM_BENCH_MEMORY_CYCLES'].flatMap((k) =>
        process.env[k] === undefined ? [] : [`${k}=${process.env[k]}`],
      ),
      `node --expose-gc ${SIMULATION_NODE_FLAGS.join(' ')} bin/run-ts.mjs bench/simulate-throughput.bench.ts`,
    ].join(' '),
    method: [
      `runSimulation (what \`tcs simulate --cycles ${CYCLES} --seed 1 --quiet\` runs) with the default strategies (2 agents), CYCLE_SECONDS 60, the synthetic market; cycles/s of the cycle loop alone.`,
      `Symbols: BTCUSDT,ETHUSDT,SOLUSDT, and all ${SYNTHETIC_SYMBOLS.length} the synthetic market knows (${SYNTHETIC_SYMBOLS.join(',')}); runs before 2026-11-28 had a 10-symbol case with 5 made-up markets, which \`tcs simulate\` refuses since d2ee5d9.`,
      'Plain loop (bench/plain-loop.ts): the same synthetic feed, agents, arbitration, sizing, risk review with signing and the paper venue on an in-process key-value store, with no actors and no event store.',
      youngGenerationChosen()
        ? `Young generation sized on the command line or in NODE_OPTIONS (${[...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].filter((a) => a.includes('semi')).join(' ')}), as \`tcs simulate\` sizes it for its child process.`
        : `Young generation left at Node's default: NOT what \`tcs simulate\` runs with (${SIMULATION_NODE_FLAGS.join(' ')}).`,
      `Memory: one run of ${int(MEMORY_CYCLES)} cycles at 3 symbols, heap used (after gc when --expose-gc) and RSS every 50,000 cycles.`,
    ],
    tables: [
      {
        caption: `${int(CYCLES)} cycles each`,
        headers: [
          'symbols',
          'tcs simulate (cycles/s)',
          'plain loop (cycles/s)',
          'simulate ÷ plain',
          'plain-loop orders',
        ],
        rows: rows.map((r) => [
          String(r.symbols),
          int(Math.round(r.simulate)),
          int(Math.round(r.plain)),
          (r.simulate / r.plain).toFixed(3),
          int(r.orders),
        ]),
      },
      ...(memory.length > 0
        ? [
            {
              caption: 'memory over the long run',
              headers: ['cycles', 'heap used', 'RSS'],
              rows: memory.map((m) => [int(m.cycles), mb(m.heapMb * 2 ** 20), mb(m.rssMb * 2 ** 20)]),
            },
          ]
        : []),
    ],
    figures: [
      ...rows.map((r) => ({
        figure: `\`tcs simulate\` cycles/s, ${r.symbols} symbols (the cycle loop, tsx)`,
        aim: r.symbols === 3 ? `≥ ${int(AIM_RATE)}` : '—',
        latest: int(r.simulate),
        met: r.symbols === 3 ? r.simulate >= AIM_RATE : null,
      })),
      ...rows.map((r) => ({
        figure: `\`tcs simulate\` ÷ the plain loop, ${r.symbols} symbols`,
        aim: r.symbols === 3 ? `≥ ${AIM_RATIO}` : '—',
        latest: `${(r.simulate / r.plain).toFixed(3)} (plain loop ${int(r.plain)} cycles/s)`,
        met: r.symbols === 3 ? r.simulate / r.plain >= AIM_RATIO : null,
      })),
      ...(memory.length > 1
        ? [
            {
              figure: '`tcs simulate` heap after GC over a long run, 3 symbols',
              aim: 'flat',
              latest: `${mb(memory[0]!.heapMb * 2 ** 20)} → ${mb(memory.at(-1)!.heapMb * 2 ** 20)} (${int(memory[0]!.cycles)} → ${int(memory.at(-1)!.cycles)} cycles)`,
              met: null,
            },
          ]
        : []),
    ],
    aims: [
      {
        text: `3 symbols: ≥ ${int(AIM_RATE)} cycles/s (measured ${three ? int(Math.round(three.simulate)) : 'n/a'})`,
        met: three ? three.simulate >= AIM_RATE : null,
      },
      {
        text: `3 symbols: ≥ ${AIM_RATIO} × the plain loop (measured ${three ? (three.simulate / three.plain).toFixed(3) : 'n/a'})`,
        met: three ? three.simulate / three.plain >= AIM_RATIO : null,
      },
    ],
    notes: [],
    seconds: (performance.now() - started) / 1000,
    data: { rows, memory },
  };
  printResult(result);
  return result;
}

runDirectly(run);

/**
 * Do the risk limits hold over a long run? Drives the real trading system (createTradingSystem, paper
 * venue, SQLite store in a temp dir, SimulatedClock as clock and timers) for N cycles in the two
 * scenarios issue 7 names — ORDER_STYLE=passive with default settings, and ARBITER_MAX_ORDERS=10 with
 * 10 symbols (the five markets the synthetic market knows and five it makes up: start price 100, the
 * fallback book) — or in two that push the limits (issue 20: `aggressive`, RISK_FRACTION=1 with three
 * market orders a cycle, and `aggressive24h`, the same with a 24 h drawdown window, so the risk engine's
 * `reducing` state is entered and left) — and after every cycle reads the venue's account: largest per-symbol exposure, net and
 * gross exposure, margin used (all ÷ NAV), drawdown from peak, resting orders; the same figures for
 * the worst case in which every resting order fills; and, from the event lines, denials by guard and
 * code, venue rejections of approved orders, refusals, liquidations. Prints the maxima beside the
 * limits and, for a maximum over its limit, how much of the excess price moves made and how much the
 * system's own fills; and what the risk engine saw and did (risk-engine-watch.ts: its state changes,
 * its own closes, a drawdown beyond the limit split into the bar's price move and the cycle's fills).
 * Not part of `npm test`; nothing is asserted.
 *
 *   node bin/run-ts.mjs bench/risk-run.ts                  this tree, both scenarios
 *   node bin/run-ts.mjs bench/risk-run.ts --compare DIR    DIR (e.g. the code before issue 7) then
 *                                                          this tree, side by side (risk-compare.ts)
 *   node bin/run-ts.mjs bench/risk-run.ts --summary F.json…  one table of results written with
 *                                                          RISK_RUN_OUT, a column per scenario (risk-summary.ts)
 * RISK_RUN_CYCLES (default 10000), RISK_RUN_BUDGET_S (default 180 per scenario: stops early, says so),
 * RISK_RUN_SCENARIOS (passive,ten; also aggressive, aggressive24h), RISK_RUN_OUT (write the JSON
 * result to this file; risk-summary.ts renders one or more such files as one table).
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { SimulatedClock } from 'xstate';
import type { EventLine } from '../src/domain/event-lines.js';
import type { MarginTable } from '../src/domain/margin.js';
import { createTradingSystem } from '../src/runtime/trading/trading-system.js';
import { engineWatch } from './risk-engine-watch.js';
import type { EngineRun } from './risk-engine-watch.js';
import { FIGURES, bookOf, figuresOf, splitChange, worstBookOf } from './risk-figures.js';
import type { Book, Figure } from './risk-figures.js';
import { int } from './stats.js';
import { openBenchStore } from './support.js';
import { SIM_START, TEN_SYMBOLS, benchTradingConfig } from './trading.js';

const AGGRESSIVE = { RISK_FRACTION: '1', ARBITER_MAX_ORDERS: '3', ORDER_STYLE: 'market' };

export const SCENARIOS: Record<string, { label: string; env: Record<string, string> }> = {
  passive: { label: 'ORDER_STYLE=passive, default settings', env: { ORDER_STYLE: 'passive' } },
  ten: {
    label: 'ARBITER_MAX_ORDERS=10, 10 symbols (5 made-up markets)',
    env: { ARBITER_MAX_ORDERS: '10', SYMBOLS: TEN_SYMBOLS },
  },
  // Sized to push the limits (issue 20): the whole risk budget per order, three orders a cycle, at market.
  aggressive: {
    label: 'RISK_FRACTION=1, ARBITER_MAX_ORDERS=3, ORDER_STYLE=market, default symbols',
    env: AGGRESSIVE,
  },
  // The same with a 24 h drawdown window, so `reducing` is entered and, as old peaks leave the window, left.
  aggressive24h: {
    label: 'the same with RISK_DRAWDOWN_WINDOW=24h',
    env: { ...AGGRESSIVE, RISK_DRAWDOWN_WINDOW: '24h' },
  },
};

interface FillCrossing {
  cycle: number;
  before: number;
  mid: number;
  after: number;
  /** For `symbol`: the symbol at the end of the cycle. */
  symbol?: string;
  fills: string[];
}

interface FigureRun {
  max: number;
  maxCycle: number;
  /** For `symbol`: the symbol at the maximum. */
  maxSymbol: string;
  cyclesOver: number;
  /** Cycles in which the cycle's fills, at the cycle's prices, took the figure from ≤ limit to > limit. */
  fillCrossings: number;
  /** Cycles in which price moves alone took it from ≤ limit to > limit. */
  priceCrossings: number;
  /** Cycles over the limit in which the fills raised it further. */
  fillsRaisedWhileOver: number;
  /** Of the fill crossings, those the quantities alone would not have made: the fills' costs lowering NAV did. */
  fillCrossingsByCost?: number;
  /** Of the cycles fills raised it while over, those in which the quantities did (not only the costs). */
  qtyRaisedWhileOver?: number;
  /** The cycle in which the fills raised it most while over: before the fills, after them. */
  worstRaise?: { cycle: number; mid: number; after: number; fills: string[] } | null;
  /** The first cycles crossed by fills: the figure before, after the price move, after the fills; the fills. */
  fillCrossingExamples?: Array<FillCrossing>;
  /** The first cycles over the limit after the price move whose fills raised it further. */
  fillsRaisedExamples?: Array<FillCrossing>;
  /** The fill crossing that ended furthest over the limit. */
  worstFillCrossing?: FillCrossing | null;
  /** The episode that reached the maximum: the figure when it was last ≤ limit, and the sums of both parts since. */
  episode: { startValue: number; startCycle: number; price: number; fills: number } | null;
}

export interface ScenarioResult {
  scenario: string;
  label: string;
  cycles: number;
  stoppedEarly: boolean;
  seconds: number;
  limits: Record<string, number>;
  held: Record<Figure, FigureRun>;
  /** Cycles that ended with any of the four figures over its limit. */
  cyclesOverAny?: number;
  worst: Record<Figure, { max: number; maxCycle: number }>;
  drawdown: { max: number; maxCycle: number; cyclesOver: number; grossAddedWhileOver: number };
  /** The first cycles in drawdown breach whose fills raised gross exposure: the drawdown before and after, the fills. */
  breachFills: Array<{ cycle: number; ddBefore: number; ddAfter: number; fills: string[] }>;
  maxResting: number;
  minNav: number;
  navBelowZeroCycles: number;
  finalNav: number;
  counts: Record<string, Record<string, number>>;
  /** What the risk engine saw and did (risk-engine-watch.ts); absent in results of older runs. */
  engine?: EngineRun;
}

const bump = (m: Record<string, number>, key: string, by = 1) => (m[key] = (m[key] ?? 0) + by);

function figureRun(): FigureRun {
  return {
    max: 0,
    maxCycle: 0,
    maxSymbol: '',
    cyclesOver: 0,
    fillCrossings: 0,
    priceCrossings: 0,
    fillsRaisedWhileOver: 0,
    fillCrossingsByCost: 0,
    qtyRaisedWhileOver: 0,
    worstRaise: null,
    fillCrossingExamples: [],
    worstFillCrossing: null,
    fillsRaisedExamples: [],
    episode: null,
  };
}

/** Counts the event lines the run is judged by. */
function lineCounter(counts: ScenarioResult['counts'], fills: string[]) {
  const c = (name: string) => (counts[name] ??= {});
  return {
    emit(line: EventLine) {
      const l = line as EventLine & Record<string, unknown>;
      if (line.event === 'order_filled')
        fills.push(`${line.client_order_id}\t${line.symbol} ${line.side} ${line.qty} ${line.liquidity}`);
      switch (line.event) {
        case 'risk_approved':
        case 'order_submitted':
        case 'order_filled':
        case 'position_liquidated':
          bump(c('events'), line.event);
          break;
        case 'risk_rejected':
          bump(c('denials'), `${String(l.guard)}/${String(l.code)}`);
          break;
        case 'order_rejected':
          bump(c('venueRejected'), String(l.reason));
          break;
        case 'order_refused':
          bump(c('refused'), String(l.code));
          break;
        case 'orders_cancelled':
          bump(c('cancelled'), String(l.reason), Number(l.count) || 0);
          break;
        default:
      }
    },
  };
}

export async function runScenario(name: string, cycles: number, budgetS: number): Promise<ScenarioResult> {
  const scenario = SCENARIOS[name];
  if (!scenario) throw new Error(`unknown scenario ${name}; known: ${Object.keys(SCENARIOS).join(', ')}`);
  const bench = await openBenchStore('sqlite');
  const counts: ScenarioResult['counts'] = { events: {}, denials: {}, venueRejected: {}, refused: {}, cancelled: {} };
  const started = performance.now();
  const cycleFills: string[] = [];
  try {
    // benchTradingConfig, not readTradingConfig: since d2ee5d9 a configuration may name only the five
    // markets the synthetic market knows, and the `ten` scenario (issue 7) trades five more of the
    // feed's made-up markets (start price 100, the fallback book) on purpose, as it always has.
    const config = benchTradingConfig(bench.url, scenario.env);
    // The margin table arrived with issue 7; before it, the figure uses the default rates.
    const margin = (config as { margin?: MarginTable }).margin;
    const clock = new SimulatedClock();
    clock.set(SIM_START);
    const watch = engineWatch(config.riskLimits.maxDrawdown);
    const counter = lineCounter(counts, cycleFills);
    const system = await createTradingSystem({
      config,
      store: bench.store,
      lines: {
        emit(line: EventLine) {
          watch.line(line);
          counter.emit(line);
        },
      },
      inspect: (event) => watch.inspect(event),
      log: pino({ level: 'silent' }),
      clock,
      timers: clock,
      backgroundTimers: false,
    });
    const limits = config.riskLimits as unknown as Record<string, number>;
    const limitOf: Record<Figure, number> = {
      symbol: config.riskLimits.maxSymbolExposure,
      net: config.riskLimits.maxTotalExposure,
      gross: config.riskLimits.maxLeverage,
      // The venue's own bound (after issue 7): initial margin used never above equity.
      margin: 1,
    };
    const held = Object.fromEntries(FIGURES.map((f) => [f, figureRun()])) as Record<Figure, FigureRun>;
    const open = Object.fromEntries(FIGURES.map((f) => [f, null])) as Record<Figure, FigureRun['episode']>;
    const worst = Object.fromEntries(FIGURES.map((f) => [f, { max: 0, maxCycle: 0 }])) as ScenarioResult['worst'];
    const drawdown = { max: 0, maxCycle: 0, cyclesOver: 0, grossAddedWhileOver: 0 };
    const breachFills: ScenarioResult['breachFills'] = [];
    let ddBefore = 0;
    // Drawdown at the end of each cycle, and the cycle each resting order was first seen in, to tell
    // when a resting order that fills in a breach was placed.
    const ddAt = new Float64Array(cycles + 1);
    let restingSince = new Map<string, number>();
    let maxResting = 0;
    let minNav = Number.POSITIVE_INFINITY;
    let navBelowZeroCycles = 0;
    let peak = 0;
    let done = 0;
    let cyclesOverAny = 0;
    let stoppedEarly = false;
    try {
      await system.settled();
      let previous: Book = bookOf(await system.venue.account());
      peak = previous.nav;
      while (done < cycles) {
        cycleFills.length = 0;
        watch.beginCycle(done + 1);
        clock.increment(config.cycleMs);
        await system.settled();
        done++;
        const account = await system.venue.account();
        const book = bookOf(account);
        const now = figuresOf(book, margin);
        const before = figuresOf(previous, margin);
        const split = splitChange(previous, book, margin, watch.shownNav());
        watch.endCycle(account, previous, book, cycleFills);
        const inBreach = peak > 0 && (peak - account.nav) / peak > config.riskLimits.maxDrawdown;
        if (FIGURES.some((f) => now[f] > limitOf[f])) cyclesOverAny++;
        for (const f of FIGURES) {
          const run = held[f];
          const limit = limitOf[f];
          const mid = before[f] + split[f].price;
          if (now[f] > run.max) {
            run.max = now[f];
            run.maxCycle = done;
            if (f === 'symbol') run.maxSymbol = now.symbolName;
          }
          if (now[f] > limit) {
            run.cyclesOver++;
            if (before[f] <= limit && mid > limit) run.priceCrossings++;
            if (mid <= limit) {
              run.fillCrossings++;
              if (mid + split[f].qty <= limit) run.fillCrossingsByCost!++;
              const crossing = {
                cycle: done,
                before: before[f],
                mid,
                after: now[f],
                symbol: now.symbolName,
                fills: [...cycleFills],
              };
              if (run.fillCrossingExamples!.length < 5) run.fillCrossingExamples!.push(crossing);
              if (!run.worstFillCrossing || crossing.after > run.worstFillCrossing.after)
                run.worstFillCrossing = crossing;
            }
            if (mid > limit && split[f].fills > 1e-12) {
              run.fillsRaisedWhileOver++;
              if (split[f].qty > 1e-12) run.qtyRaisedWhileOver!++;
              if (!run.worstRaise || split[f].fills > run.worstRaise.after - run.worstRaise.mid)
                run.worstRaise = { cycle: done, mid, after: now[f], fills: [...cycleFills] };
              if (run.fillsRaisedExamples!.length < 5)
                run.fillsRaisedExamples!.push({
                  cycle: done,
                  before: before[f],
                  mid,
                  after: now[f],
                  symbol: now.symbolName,
                  fills: [...cycleFills],
                });
            }
            const ep = (open[f] ??= { startValue: before[f], startCycle: done - 1, price: 0, fills: 0 });
            ep.price += split[f].price;
            ep.fills += split[f].fills;
            if (run.maxCycle === done) run.episode = { ...ep };
          } else {
            open[f] = null;
          }
        }
        const worstNow = figuresOf(worstBookOf(account), margin);
        for (const f of FIGURES) if (worstNow[f] > worst[f].max) worst[f] = { max: worstNow[f], maxCycle: done };
        // Drawdown from the highest NAV seen at a cycle's end (or the venue's own peak, if higher).
        peak = Math.max(peak, account.nav, account.peakNav);
        const dd = peak > 0 ? (peak - account.nav) / peak : 0;
        if (dd > drawdown.max) Object.assign(drawdown, { max: dd, maxCycle: done });
        if (dd > config.riskLimits.maxDrawdown) drawdown.cyclesOver++;
        if (inBreach && split.gross.fills > 1e-12) {
          drawdown.grossAddedWhileOver++;
          const described = cycleFills.map((f) => {
            const [id = '', text] = f.split('\t');
            const since = restingSince.get(id);
            return since === undefined
              ? `${text} (new this cycle)`
              : `${text} (resting since cycle ${int(since)}, drawdown then ${(ddAt[since]! * 100).toFixed(2)} %)`;
          });
          if (breachFills.length < 10) breachFills.push({ cycle: done, ddBefore, ddAfter: dd, fills: described });
        }
        ddBefore = dd;
        ddAt[done] = dd;
        const nextResting = new Map<string, number>();
        for (const o of account.openOrders)
          if (o.status === 'open') nextResting.set(o.clientOrderId, restingSince.get(o.clientOrderId) ?? done);
        restingSince = nextResting;
        const resting = account.openOrders.filter((o) => o.status === 'open').length;
        maxResting = Math.max(maxResting, resting);
        minNav = Math.min(minNav, account.nav);
        if (account.nav < 0) navBelowZeroCycles++;
        previous = book;
        if ((performance.now() - started) / 1000 > budgetS) {
          stoppedEarly = done < cycles;
          break;
        }
      }
      return {
        scenario: name,
        label: scenario.label,
        cycles: done,
        stoppedEarly,
        seconds: (performance.now() - started) / 1000,
        limits,
        held,
        cyclesOverAny,
        worst,
        drawdown,
        breachFills,
        maxResting,
        minNav,
        navBelowZeroCycles,
        finalNav: previous.nav,
        counts,
        engine: watch.run,
      };
    } finally {
      await system.stop('risk run over');
    }
  } finally {
    await bench.cleanup();
  }
}

async function main(): Promise<void> {
  const summaryAt = process.argv.indexOf('--summary');
  if (summaryAt >= 0) {
    const { printSummary } = await import('./risk-summary.js');
    printSummary(process.argv.slice(summaryAt + 1));
    return;
  }
  const compareAt = process.argv.indexOf('--compare');
  if (compareAt >= 0) {
    const { compare } = await import('./risk-compare.js');
    await compare(process.argv[compareAt + 1] ?? '');
    return;
  }
  const cycles = Number(process.env.RISK_RUN_CYCLES ?? 10_000);
  const budgetS = Number(process.env.RISK_RUN_BUDGET_S ?? 180);
  const names = (process.env.RISK_RUN_SCENARIOS ?? 'passive,ten').split(',').map((s) => s.trim());
  const results: ScenarioResult[] = [];
  for (const name of names) {
    const r = await runScenario(name, cycles, budgetS);
    console.error(`risk-run: ${name}: ${r.cycles} cycles in ${r.seconds.toFixed(0)} s`);
    results.push(r);
  }
  if (process.env.RISK_RUN_OUT) writeFileSync(process.env.RISK_RUN_OUT, JSON.stringify(results));
  else {
    const { report } = await import('./risk-report.js');
    console.log(report([{ label: 'this tree', results }]));
  }
}

if (process.env.TCS_BENCH_ROLE === undefined)
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );

/**
 * The three indicator libraries issue 34 named, side by side, and what the chosen one costs a
 * strategy per cycle (docs/strategies/indicators.md). Only trading-signals is a dependency; the other
 * two are installed beside the project for the comparison and never committed:
 *
 *   mkdir -p /tmp/indcmp && (cd /tmp/indcmp && npm init -y && npm install --save-exact \
 *     trading-signals@8.3.0 @ixjb94/indicators@1.2.4 technicalindicators@3.1.0)
 *   node bin/run-ts.mjs bench/indicator-libraries.ts /tmp/indcmp
 *
 * Prints two tables: updates per second, fed one close (or candle) at a time, 1,000,000 bars, best of
 * 3 (@ixjb94/indicators has no streaming form: its figure is one pass over the whole array, the
 * most favourable case for it); and µs per analyse-sized call of trackIndicators (one new bar per
 * cycle) against recomputing the same indicators over the declared lookback every cycle.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { barsFromCloses } from '../src/domain/bars.js';
import type { Bars } from '../src/domain/bars.js';
import { ta } from '../src/strategies/indicators/ta.js';
import { trackIndicators } from '../src/strategies/indicators/tracker.js';
import { markdownTable } from './stats.js';

const dir = process.argv[2];
if (dir === undefined)
  throw new Error('usage: node bin/run-ts.mjs bench/indicator-libraries.ts <dir with the three libraries>');
const load = createRequire(join(dir, 'package.json'));
type Lib = Record<string, new (...args: never[]) => Record<string, (...args: unknown[]) => unknown>>;
const TS = (await import(load.resolve('trading-signals'))) as Lib;
const TI = load('technicalindicators') as Lib;
const IX = new (load('@ixjb94/indicators') as Lib).IndicatorsSync!() as Record<string, (...args: unknown[]) => unknown>;

const N = 1_000_000;
const closes = new Float64Array(N);
let x = 100;
let seed = 1;
for (let i = 0; i < N; i++) {
  seed = (seed * 16807) % 2147483647;
  x *= 1 + (seed / 2147483647 - 0.5) * 0.01;
  closes[i] = x;
}
const highs = closes.map((c) => c * 1.002);
const lows = closes.map((c) => c * 0.998);

function rate(run: () => void): string {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    run();
    best = Math.min(best, performance.now() - t0);
  }
  return `${(N / best / 1000).toFixed(2)} M/s`;
}

const stream =
  (make: () => Record<string, (...a: unknown[]) => unknown>, method: string, input: (i: number) => unknown) => () => {
    const s = make();
    const f = s[method]!.bind(s);
    for (let i = 0; i < N; i++) f(input(i));
  };
const close = (i: number) => closes[i];
const candle = (i: number) => ({ high: highs[i], low: lows[i], close: closes[i] });
const all = Array.from(closes);
const allH = Array.from(highs);
const allL = Array.from(lows);

const libraries = markdownTable({
  headers: [
    'indicator',
    'trading-signals 8.3.0 (add)',
    'technicalindicators 3.1.0 (nextValue)',
    '@ixjb94/indicators 1.2.4 (whole array)',
  ],
  rows: [
    [
      'EMA(10)',
      rate(stream(() => new TS.EMA!(10 as never), 'add', close)),
      rate(stream(() => new TI.EMA!({ period: 10, values: [] } as never), 'nextValue', close)),
      rate(() => IX.ema!(all, 10)),
    ],
    [
      'RSI(14)',
      rate(stream(() => new TS.RSI!(14 as never), 'add', close)),
      rate(stream(() => new TI.RSI!({ period: 14, values: [] } as never), 'nextValue', close)),
      rate(() => IX.rsi!(all, 14)),
    ],
    [
      'ATR(14)',
      rate(stream(() => new TS.ATR!(14 as never), 'add', candle)),
      rate(stream(() => new TI.ATR!({ period: 14, high: [], low: [], close: [] } as never), 'nextValue', candle)),
      rate(() => IX.atr!(allH, allL, all, 14)),
    ],
  ],
});
console.log(libraries);

// Per cycle: a 203-bar window sliding one bar a cycle, one symbol.
const specs = () => ({ ema: ta.ema(20), atr: ta.atr(14), bands: ta.bollinger(20, 2) });
const L = trackIndicators(specs()).lookback;
const CYCLES = 20_000;
const bars = barsFromCloses(Array.from(closes.subarray(0, CYCLES + L)));
const view = (end: number): Bars => ({
  length: L,
  time: bars.time.subarray(end - L, end),
  open: bars.open.subarray(end - L, end),
  high: bars.high.subarray(end - L, end),
  low: bars.low.subarray(end - L, end),
  close: bars.close.subarray(end - L, end),
  volume: bars.volume.subarray(end - L, end),
});
function perCycle(run: (candles: Bars) => unknown): string {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    for (let end = L; end < L + CYCLES; end++) run(view(end));
    best = Math.min(best, performance.now() - t0);
  }
  return `${((best * 1000) / CYCLES).toFixed(2)} µs`;
}
const tracker = trackIndicators(specs());
const incremental = perCycle((candles) => tracker.update({ symbol: 'BTCUSDT', candles, higher: null }));
const recompute = perCycle((candles) => trackIndicators(specs()).update({ symbol: 'BTCUSDT', candles, higher: null }));
console.log(
  markdownTable({
    headers: [
      `{ ema(20), atr(14), bollinger(20, 2) }, ${L}-bar lookback, per cycle`,
      'trackIndicators (one new bar)',
      'recomputed over the lookback',
    ],
    rows: [['one symbol', incremental, recompute]],
  }),
);

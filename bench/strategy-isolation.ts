/**
 * What isolating a strategy's input costs per analyse call (one agent, one symbol), against handing
 * it the feed's own memory as before: the agent's own candle copies (private-bars.ts) when it reads
 * only closes (the built-in crossover) and when it reads every field, for the default 60-bar window
 * and the longest (10,080 bars); the frozen book copy (10 levels a side, the derived book's depth);
 * and the alternative not taken for candles, a read-only Proxy over the feed's array, read by a
 * 32-bar SMA. Prints a Markdown table of ns per call (best of 5 rounds).
 *
 *   node bin/run-ts.mjs bench/strategy-isolation.ts
 */
import { performance } from 'node:perf_hooks';
import { barsFromCloses } from '../src/domain/bars.js';
import type { Bars } from '../src/domain/bars.js';
import type { MarketSnapshot } from '../src/domain/market.js';
import { PrivateBars } from '../src/domain/private-bars.js';
import { strategySnapshot } from '../src/domain/strategy-input.js';
import { markdownTable } from './stats.js';

const CALLS = 200_000;

function market(bars: Bars): MarketSnapshot {
  const level = (i: number, side: number) => ({ price: 100 + side * (0.1 + i * 0.1), qty: 1 + i });
  return {
    symbol: 'BTCUSDT',
    ts: 0,
    last: 100,
    bid: 99.9,
    ask: 100.1,
    bids: Array.from({ length: 10 }, (_, i) => level(i, -1)),
    asks: Array.from({ length: 10 }, (_, i) => level(i, 1)),
    bars,
    volume: 1,
    fundingRate: null,
    nextFundingTs: null,
  };
}

function sma(xs: Float64Array, n: number): number {
  let sum = 0;
  for (let i = xs.length - n; i < xs.length; i++) sum += xs[i]!;
  return sum / n;
}

/** The same SMA, its own function: a Proxy receiver must not make the others' call sites megamorphic. */
function smaProxied(xs: ArrayLike<number>, n: number): number {
  let sum = 0;
  for (let i = xs.length - n; i < xs.length; i++) sum += xs[i]!;
  return sum / n;
}

/** ns per call of `f`, best of 5 rounds. */
function perCall(f: () => number): number {
  let best = Infinity;
  let sink = 0;
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) sink += f();
    best = Math.min(best, ((performance.now() - t0) * 1e6) / CALLS);
  }
  if (Number.isNaN(sink)) console.log('');
  return best;
}

const rows: string[][] = [];
for (const n of [60, 10_080]) {
  const m = market(barsFromCloses(Array.from({ length: n }, (_, i) => 100 + (i % 7))));
  const own = new PrivateBars();
  const shared = perCall(() => sma(m.bars.close, 32));
  const closeOnly = perCall(() => sma(strategySnapshot(m, null, 0, 1, own).candles.close, 32));
  const every = perCall(() => {
    const c = strategySnapshot(m, null, 0, 1, own).candles;
    return sma(c.close, 32) + c.time[0]! + c.open[0]! + c.high[0]! + c.low[0]! + c.volume[0]!;
  });
  // A bare Proxy cannot even read `.length` (typed-array getters refuse a proxy receiver), so every
  // read goes through a get trap; methods (subarray, set) would still reach the feed's memory.
  const readOnly = new Proxy(m.bars.close, {
    get: (target, key) => Reflect.get(target, key, target) as unknown,
    set: () => false,
    defineProperty: () => false,
  });
  const proxy = perCall(() => smaProxied(readOnly, 32));
  rows.push([String(n), shared.toFixed(0), closeOnly.toFixed(0), every.toFixed(0), proxy.toFixed(0)]);
}
const m = market(barsFromCloses([100, 101]));
const book = perCall(() => strategySnapshot(m, null, 0, 1).asks[0]!.price);
const noBook = perCall(() => strategySnapshot(m, null, 0, 1).ask);
console.log(
  markdownTable({
    headers: [
      'bars',
      'feed memory, SMA(32) (before), ns',
      'own copy, closes read, ns',
      'own copy, every field read, ns',
      'read-only Proxy, SMA(32), ns',
    ],
    rows,
  }),
);
console.log(
  `\nfrozen book copy (10 levels a side), first read: ${(book - noBook).toFixed(0)} ns per call beyond the view itself (${noBook.toFixed(0)} ns)`,
);

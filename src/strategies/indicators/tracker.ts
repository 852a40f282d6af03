/**
 * trackIndicators: a strategy declares its indicators once (`{ fast: ta.ema(10), atr: ta.atr(14) }`)
 * and asks for their values each cycle with `update(snapshot)`. Per symbol, each indicator is a
 * stream fed every closed bar exactly once, so a cycle costs O(new bars), never a pass over the
 * window. Pure and deterministic: the values are a function of the bars handed in, in order.
 *
 * Which bars: the snapshot's declared-timeframe candles when it has them (`higher`), else its base
 * candles. A call whose last bar is the one already seen changes nothing (the same readings come
 * back), so a coarser timeframe updates once per its own bar however often `analyse` runs.
 *
 * Gaps: the streams count bars, not time. A bar missing from the data is not invented: the next bar
 * is simply the next input (a 14-bar ATR then spans a little more time). A bar whose high, low or
 * close is not a finite number is skipped the same way. Bars the strategy was not called for (a
 * symbol skipped for some cycles) are fed at the next call while they are still in the window; when
 * the last bar seen has left the window, or the bar under its time is not the one fed (a corrected
 * candle; a test handing one agent several series), or time went backwards (a new run handed to the
 * same agent), the streams start afresh from the last `lookback` bars, exactly as on the first call.
 *
 * Each tracker announces itself to an observer when one is installed (observer.ts): that is how
 * `tcs strategy check` compares indicator values between its runs.
 */
import type { Bars } from '../../domain/bars.js';
import { announceTracker } from './observer.js';
import type { IndicatorSpec, IndicatorStream } from './ta.js';

/** The declared indicators, by the names the strategy reads them under. */
export type IndicatorSpecs = Readonly<Record<string, IndicatorSpec<unknown>>>;

/** One value per declared name (a number, or a Band / Macd object). */
export type IndicatorValues<S extends IndicatorSpecs> = {
  readonly [K in keyof S]: S[K] extends IndicatorSpec<infer V> ? V : never;
};

/** The values after the last closed bar (`now`) and after the bar before it (`prev`, null on the first ready bar). */
export interface IndicatorReadings<S extends IndicatorSpecs> {
  readonly now: IndicatorValues<S>;
  readonly prev: IndicatorValues<S> | null;
  /** Open time of the bar `now` belongs to, epoch ms. */
  readonly time: number;
}

/** The part of the snapshot the tracker reads (a StrategySnapshot is one). */
export interface IndicatorInput {
  readonly symbol: string;
  readonly candles: Bars;
  readonly higher: Bars | null;
}

/** Declared indicators for every symbol of one agent: made by trackIndicators, asked once per cycle. */
export interface IndicatorTracker<S extends IndicatorSpecs> {
  /**
   * Bars to declare as the strategy's `lookback` (at least): the longest warm-up, plus one bar so
   * `prev` is warm as well. Given that many, the values do not depend on how much history came first.
   */
  readonly lookback: number;
  /** Feeds the bars this snapshot adds; null until every declared indicator has a value. */
  update(snapshot: IndicatorInput): IndicatorReadings<S> | null;
}

interface SymbolState {
  streams: [string, IndicatorStream<unknown>][];
  /** Open time of the last bar fed (or skipped); -Infinity before any. */
  lastTime: number;
  /** That bar's high, low and close: a different bar under the same time is not the one fed. */
  lastBar: [number, number, number];
  /** After the last bar fed; null while any indicator is still warming up. */
  readings: IndicatorReadings<IndicatorSpecs> | null;
}

/**
 * A tracker of the declared indicators, one set of streams per symbol: declare it in the factory,
 * give `lookback: tracker.lookback` (or more), call `tracker.update(snapshot)` in `analyse`. Throws
 * when the set is empty or an entry is not made by `ta`.
 */
export function trackIndicators<S extends IndicatorSpecs>(specs: S): IndicatorTracker<S> {
  const names = Object.keys(specs);
  if (names.length === 0) throw new RangeError('trackIndicators needs at least one indicator');
  for (const name of names) {
    const spec: unknown = specs[name];
    if (spec === null || typeof spec !== 'object' || typeof (spec as { open?: unknown }).open !== 'function')
      throw new TypeError(`trackIndicators: "${name}" is not an indicator (make one with ta.ema(10), ta.atr(14), …)`);
  }
  const lookback = Math.max(...names.map((n) => specs[n]!.warmup)) + 1;
  const bySymbol = new Map<string, SymbolState>();
  // Seen only by `tcs strategy check` (observer.ts), which compares the readings between its runs.
  announceTracker({
    // A hand-made spec may lack a label (only `open` is checked): its name stands in.
    labels: Object.freeze(Object.fromEntries(names.map((n) => [n, labelOf(specs[n]!, n)]))),
    readings: (symbol) => bySymbol.get(symbol)?.readings ?? null,
  });

  const fresh = (): SymbolState => ({
    streams: names.map((n) => [n, specs[n]!.open()]),
    lastTime: Number.NEGATIVE_INFINITY,
    lastBar: [Number.NaN, Number.NaN, Number.NaN],
    readings: null,
  });

  function feed(state: SymbolState, bars: Bars, from: number): void {
    for (let i = from; i < bars.length; i++) {
      state.lastTime = bars.time[i]!;
      state.lastBar = [bars.high[i]!, bars.low[i]!, bars.close[i]!];
      if (!Number.isFinite(bars.high[i]!) || !Number.isFinite(bars.low[i]!) || !Number.isFinite(bars.close[i]!))
        continue;
      const values: Record<string, unknown> = {};
      let ready = true;
      for (const [name, stream] of state.streams) {
        const v = stream(bars, i);
        values[name] = v;
        if (v === null) ready = false;
      }
      const prev = state.readings?.now ?? null;
      state.readings = ready ? Object.freeze({ now: Object.freeze(values), prev, time: bars.time[i]! }) : null;
    }
  }

  return {
    lookback,
    update(snapshot) {
      const bars = snapshot.higher ?? snapshot.candles;
      const n = bars.length;
      if (n === 0) return null;
      const newest = bars.time[n - 1]!;
      let state = bySymbol.get(snapshot.symbol);
      if (state !== undefined && newest === state.lastTime && sameBar(bars, n - 1, state.lastBar))
        return state.readings as IndicatorReadings<S> | null;
      let from = -1;
      if (state !== undefined && newest > state.lastTime) {
        // Walk back over the new bars only: O(bars since the last call).
        let i = n - 1;
        while (i >= 0 && bars.time[i]! > state.lastTime) i--;
        if (i >= 0 && bars.time[i] === state.lastTime && sameBar(bars, i, state.lastBar)) from = i + 1;
      }
      if (from < 0) {
        // First call, the last bar seen has left the window or is not the one fed (a corrected
        // candle, another series under the same times), or time went back: start afresh.
        state = fresh();
        bySymbol.set(snapshot.symbol, state);
        from = Math.max(0, n - lookback);
      }
      feed(state!, bars, from);
      return state!.readings as IndicatorReadings<S> | null;
    },
  };
}

function labelOf(spec: IndicatorSpec<unknown>, name: string): string {
  const label: unknown = spec.label;
  return typeof label === 'string' ? label : name;
}

/** True when bar `i` has the high, low and close recorded (NaN equal to NaN: a skipped bar). */
function sameBar(bars: Bars, i: number, [high, low, close]: readonly [number, number, number]): boolean {
  return Object.is(bars.high[i], high) && Object.is(bars.low[i], low) && Object.is(bars.close[i], close);
}

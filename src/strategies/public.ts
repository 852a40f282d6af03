/**
 * The public entry for strategy authors: `import … from 'trading-control-service/strategy'` (package
 * `exports`). Everything a strategy and its test need, and nothing else, so internal modules can
 * move without breaking user code. Run: dist/strategy/public.js (compiled and bundled into one
 * module by bin/build.mjs, loads in plain Node); types: this file. test/strategies/public-entry.test.ts imports every export from a project
 * outside the repository, and fails when one is added here without being listed there.
 */

/** The agent interface, its factory type and what `analyse` receives (see strategy-agent.ts). */
export type { StrategyAgent, StrategyFactory, StrategySnapshot } from '../domain/strategy-agent.js';
/** What `analyse` returns: `{agent, symbol, direction, confidence, rationale?, target?}`; `target` sizes it (quantity, notional or NAV fraction). */
export type { Signal, SignalTarget } from '../domain/signal.js';
/** The traded instrument (`kind`, `lotSize`, `tickSize`, `minNotional`) and one book level. */
export type { BookLevel, Instrument, InstrumentKind } from '../domain/market.js';
/** Candles as typed-array columns (`Bars`) and one candle as a row (`Bar`). */
export type { Bar, Bars } from '../domain/bars.js';
/** Options of testSnapshot. */
export type { TestSnapshotOptions } from './test-snapshot.js';
/** A declared indicator (`ta.ema(10)`…), the lines of a band (Bollinger, Donchian) and of MACD. */
export type { Band, IndicatorSpec, Macd } from './indicators/ta.js';
/** What trackIndicators takes and gives: the declared set, its values, the readings of a bar, the tracker. */
export type {
  IndicatorInput,
  IndicatorReadings,
  IndicatorSpecs,
  IndicatorTracker,
  IndicatorValues,
} from './indicators/tracker.js';

/** Indicators and numeric helpers: `sma` (simple moving average), `rsi` (relative strength, 0–100), `clamp`. */
export { clamp, rsi, sma } from '../domain/indicators.js';
/** Parameters: merge over defaults refusing unknown names (`resolveParams`), check a number (`requireNumber`). */
export { requireNumber, resolveParams } from './strategy.js';
/** Candles for tests: from rows (`barsFromRows`) or from closes alone (`barsFromCloses`). */
export { barsFromCloses, barsFromRows } from '../domain/bars.js';
/** The snapshot a strategy's test hands to `analyse`. */
export { testSnapshot } from './test-snapshot.js';
/**
 * Indicators to declare, updated once per bar (trading-signals underneath): `ta.sma(n)`, `ta.ema(n)`,
 * `ta.rsi(n)` (Wilder's), `ta.atr(n)` (Wilder's), `ta.bollinger(n, k)`, `ta.donchian(n)`, `ta.macd(f, s, sig)`.
 */
export { ta } from './indicators/ta.js';
/** How little a smoothed indicator's first bars weigh once warmed up (1e-6): what `lookback` is sized for. */
export { SEED_WEIGHT } from './indicators/ta.js';
/**
 * Per-symbol incremental values of declared indicators: `const t = trackIndicators({ fast: ta.ema(10) })`,
 * `lookback: t.lookback`, then `t.update(snapshot)` in `analyse` ({ now, prev, time } or null while warming up).
 */
export { trackIndicators } from './indicators/tracker.js';

/**
 * The interface every strategy agent implements, built-in or user-supplied (how to write one:
 * docs/strategies/writing-a-strategy.md; authors import it from the public entry,
 * src/strategies/public.ts). Machines and the strategy layer both use it, so it lives in the domain.
 */
import type { Bars } from './bars.js';
import type { BookLevel, Instrument, MarketSnapshot } from './market.js';
import type { Signal } from './signal.js';

/**
 * What `analyse` receives: the symbol's market snapshot plus what the agent declared it needs and
 * what it holds. Every field is read-only and none is shared with the venue, the risk engine or
 * another agent: the book levels are a frozen copy (a write throws), the bar arrays this agent's own
 * copies, valid for this call (the next call reuses their memory: keep bars across cycles by copying,
 * `Array.from(candles.close)`). A write into them changes only what this agent reads in this call.
 * The snapshot's `execution` is left out: it may hold the next bar's open, which no signal may see.
 */
export interface StrategySnapshot extends Readonly<Omit<MarketSnapshot, 'execution' | 'bids' | 'asks'>> {
  /** Best first (highest bid first); a frozen copy of the feed's levels. */
  readonly bids: readonly Readonly<BookLevel>[];
  /** Best first (lowest ask first); a frozen copy of the feed's levels. */
  readonly asks: readonly Readonly<BookLevel>[];
  /**
   * The base-timeframe candles (the feed's: one per market step), at least `lookback` of them when
   * the agent declared a lookback and no `timeframe`. The last bar is the one that just closed.
   */
  readonly candles: Bars;
  /**
   * The declared `timeframe`'s completed candles, resampled from the base ones (at least `lookback`
   * of them); null when the agent declared no timeframe.
   */
  readonly higher: Bars | null;
  /** The closes of `candles` as a plain array (made on first read): today's interface, kept as is. */
  readonly closes: number[];
  /**
   * This agent's position in the symbol, signed base units: what the account holds there when this
   * agent's signal set it, else 0 (another agent's trade is not this one's to manage).
   */
  readonly position: number;
  /** The account's net asset value in the quote currency (USDT) at the cycle's marks. */
  readonly nav: number;
}

/**
 * A strategy: a name, what history it needs (`lookback`, `timeframe`), the parameter names it takes,
 * and `analyse`, called once per symbol per cycle. Default-export one (or a StrategyFactory).
 */
export interface StrategyAgent {
  /** Unique among loaded agents; becomes `Signal.agent` and the key of the arbitration weights. */
  readonly name: string;
  /**
   * Bars of history `analyse` needs (of `timeframe` when declared, else of the feed's base
   * timeframe). The trading process fills this much history before the first cycle and never calls
   * `analyse` with less; a feed that cannot provide it is an error at start. Absent: no promise
   * beyond the feed's default window (60 base bars).
   */
  readonly lookback?: number;
  /**
   * A timeframe coarser than the feed's (`5m`, `15m`, `1h`, `4h`, `1d`, …: see timeframes.ts), a
   * whole multiple of it; its candles arrive in `snapshot.higher`.
   */
  readonly timeframe?: string;
  /**
   * The names of the parameters its factory takes. Declared, a STRATEGY_PARAMS key outside them is
   * refused at load (exit 2, with the nearest name) rather than silently ignored; not declared,
   * parameter names are not checked (only the factory's own validation applies).
   */
  readonly parameters?: readonly string[];
  /**
   * One symbol, one cycle. Returns null when there is nothing to say (no edge). A returned Signal has
   * `agent === name`, `symbol === snapshot.symbol`, an integer direction (its sign counts: +1 long,
   * −1 short, 0 flat, as docs/strategies/writing-a-strategy.md says) and confidence in [0, 1]; anything else is discarded as
   * INVALID_SIGNAL.
   */
  analyse(snapshot: StrategySnapshot, instrument: Instrument): Signal | null;
}

/**
 * How parameterised agents are made: every parameter is optional and falls back to the strategy's
 * documented default. Factories validate what they receive (params may come from configuration)
 * and throw an Error naming the strategy and the parameter.
 */
export type StrategyFactory<P extends object = Record<string, unknown>> = (params?: Partial<P>) => StrategyAgent;

/**
 * What each agent needs and what it is given: the history an agent's declaration (`lookback`,
 * `timeframe`) requires of the feed, checked once at start, and the per-call StrategySnapshot built
 * from the feed's snapshot without copying its bars. The contract check on what an agent returns
 * lives here too, so every path that calls `analyse` enforces the same rules.
 */
import type { Bars } from './bars.js';
import { baseBarsFor, resample } from './bars.js';
import type { BookLevel, MarketSnapshot } from './market.js';
import { PrivateBars } from './private-bars.js';
import type { Signal } from './signal.js';
import type { StrategyAgent, StrategySnapshot } from './strategy-agent.js';
import { TIMEFRAME_LIST, TIMEFRAMES } from './timeframes.js';

/** The window a feed keeps when no agent asks for more: the 60 bars strategies always had. */
export const DEFAULT_HISTORY_BARS = 60;

/** Longest history an agent may ask for, in base bars (a week of minutes): a bound on memory per symbol. */
export const MAX_HISTORY_BARS = 10_080;

/** One agent's needs, resolved against the feed's base timeframe. */
export interface HistoryPlan {
  /** Declared bars (of `timeframeMs`), 0 when the agent declared none. */
  lookback: number;
  /** The declared timeframe's length, or null for the base timeframe. */
  timeframeMs: number | null;
  /** Base bars the feed must hold for this agent. */
  baseBars: number;
}

/**
 * What `agent` needs of a feed whose bars are `baseMs` long. Throws an Error naming the agent when
 * its declaration is not usable: a lookback that is not a whole number ≥ 1, an unknown timeframe, one
 * coarser than the feed's but not a whole multiple of it, or more history than MAX_HISTORY_BARS. A
 * timeframe finer than the feed's is served with the feed's own bars.
 */
export function historyPlan(agent: StrategyAgent, baseMs: number): HistoryPlan {
  const { lookback, timeframe } = agent;
  if (lookback !== undefined && !(Number.isInteger(lookback) && lookback >= 1))
    throw new Error(`strategy ${agent.name}: lookback must be a whole number of bars ≥ 1, got ${String(lookback)}`);
  let timeframeMs: number | null = null;
  if (timeframe !== undefined) {
    const ms = typeof timeframe === 'string' ? TIMEFRAMES[timeframe] : undefined;
    if (ms === undefined)
      throw new Error(`strategy ${agent.name}: timeframe ${JSON.stringify(timeframe)} is not one of ${TIMEFRAME_LIST}`);
    // Finer candles than the data has do not exist: the data's own bars serve (a replay of hourly
    // candles runs a 15-minute strategy on hourly ones, as it always did). A coarser timeframe must
    // be whole data bars, or its candles could not be built.
    if (ms > baseMs && ms % baseMs !== 0)
      throw new Error(
        `strategy ${agent.name}: timeframe ${timeframe} is not a whole multiple of the market data's ${barLength(baseMs)} bars` +
          " (a simulation's --cycle-seconds sets them: use a divisor of the timeframe, e.g. 60)",
      );
    if (ms > baseMs) timeframeMs = ms;
  }
  const declared = lookback ?? 0;
  const baseBars = timeframeMs === null ? declared : baseBarsFor(Math.max(declared, 1), baseMs, timeframeMs);
  if (baseBars > MAX_HISTORY_BARS)
    throw new Error(
      `strategy ${agent.name}: lookback ${declared}${timeframe ? ` × ${timeframe}` : ''} needs ${baseBars} base bars, more than the ${MAX_HISTORY_BARS} a feed keeps`,
    );
  return { lookback: declared, timeframeMs, baseBars };
}

/** A bar length as people say it: "1 min", "15 s", "4 h". */
function barLength(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

/** The window every feed must keep for these plans (never less than DEFAULT_HISTORY_BARS). */
export function historyBars(plans: readonly HistoryPlan[]): number {
  return Math.max(DEFAULT_HISTORY_BARS, ...plans.map((p) => p.baseBars));
}

/** True when `bars` give the agent everything it declared (and so `analyse` may be called). */
export function hasHistory(plan: HistoryPlan, candles: Bars, higher: Bars | null): boolean {
  if (plan.timeframeMs === null) return candles.length >= plan.lookback;
  return higher !== null && higher.length >= Math.max(plan.lookback, 1);
}

/**
 * Completed higher-timeframe bars already built, per feed column (the bars' buffer: a synthetic or
 * file feed keeps one per symbol for its whole life) and timeframe. Completed bars never change, so
 * while a window holds the same completed buckets (a 15-minute bar completes every 15 one-minute
 * cycles) the last result is the answer: resampling 494 bars every cycle was 5 % of a simulation.
 * A live feed's fresh arrays each cycle miss it, and their entries go with their buffers.
 */
const completedBuckets = new WeakMap<ArrayBufferLike, Map<number, { first: number; last: number; bars: Bars }>>();

function resampleOnce(base: Bars, baseMs: number, tfMs: number): Bars {
  if (base.length === 0 || tfMs === baseMs) return resample(base, baseMs, tfMs);
  const t0 = base.time[0]!;
  const first = Math.ceil(t0 / tfMs);
  const last = Math.floor((base.time[base.length - 1]! + baseMs) / tfMs) - 1;
  let byTf = completedBuckets.get(base.close.buffer);
  if (byTf === undefined) completedBuckets.set(base.close.buffer, (byTf = new Map()));
  const seen = byTf.get(tfMs);
  if (seen !== undefined && seen.first === first && seen.last === last) return seen.bars;
  const bars = resample(base, baseMs, tfMs);
  byTf.set(tfMs, { first, last, bars });
  return bars;
}

/**
 * Higher-timeframe bars for one cycle, computed once per symbol and timeframe however many agents
 * read them, and not at all while a symbol's completed buckets are those of an earlier cycle.
 */
export class ResampleCache {
  private readonly cache = new Map<string, Bars>();
  constructor(private readonly baseMs: number) {}
  get(snapshot: MarketSnapshot, tfMs: number): Bars {
    const key = `${snapshot.symbol}\u0000${tfMs}`;
    let bars = this.cache.get(key);
    if (bars === undefined) {
      bars = resampleOnce(snapshot.bars, this.baseMs, tfMs);
      this.cache.set(key, bars);
    }
    return bars;
  }
}

/** A frozen copy of book levels: the venue fills off the feed's own, which no strategy reaches. */
function frozenLevels(levels: readonly BookLevel[]): readonly Readonly<BookLevel>[] {
  const out: Readonly<BookLevel>[] = [];
  for (const l of levels) out.push(Object.freeze({ price: l.price, qty: l.qty }));
  return Object.freeze(out);
}

/**
 * The snapshot `analyse` receives: the market snapshot's fields, what the agent is told, the
 * agent's own copies of its candles (private-bars.ts) and of the book, and `closes` copied out of
 * the bars only if an agent reads it. Nothing in it is the feed's: the paper venue fills off the
 * feed's book and the risk engine reads the feed's snapshot, so what a strategy does to what it
 * was handed changes only its own signals. The book is copied and frozen on first read (in a
 * module, `asks.sort()` or `asks[0].price = …` then throws, and the agent's error is reported). A
 * class rather than a frozen spread with an accessor, which put every object in dictionary mode:
 * that was 4 % of a simulation, six of them a cycle. Source objects in true private fields.
 */
class StrategyView implements StrategySnapshot {
  readonly symbol: string;
  readonly ts: number;
  readonly last: number;
  readonly bid: number;
  readonly ask: number;
  readonly bars: Bars;
  readonly volume: number;
  readonly fundingRate: number | null;
  readonly nextFundingTs: number | null;
  readonly candles: Bars;
  readonly higher: Bars | null;
  readonly #source: MarketSnapshot;
  #bids: readonly Readonly<BookLevel>[] | null = null;
  #asks: readonly Readonly<BookLevel>[] | null = null;
  #closes: number[] | null = null;

  constructor(
    s: MarketSnapshot,
    higher: Bars | null,
    readonly position: number,
    readonly nav: number,
    own: PrivateBars,
  ) {
    this.#source = s;
    this.symbol = s.symbol;
    this.ts = s.ts;
    this.last = s.last;
    this.bid = s.bid;
    this.ask = s.ask;
    this.candles = own.view(s.symbol, s.bars);
    this.bars = this.candles;
    this.higher = higher === null ? null : own.view(`${s.symbol}\u0000higher`, higher);
    this.volume = s.volume;
    this.fundingRate = s.fundingRate;
    this.nextFundingTs = s.nextFundingTs;
  }

  get bids(): readonly Readonly<BookLevel>[] {
    return (this.#bids ??= frozenLevels(this.#source.bids));
  }

  get asks(): readonly Readonly<BookLevel>[] {
    return (this.#asks ??= frozenLevels(this.#source.asks));
  }

  get closes(): number[] {
    // From the feed's closes: Array.from is itself the copy.
    return (this.#closes ??= Array.from(this.#source.bars.close));
  }
}

/**
 * What `analyse` is handed for `snapshot`. `own` holds the agent's candle buffers, reused from one
 * cycle to the next (an agent actor keeps one); without it the copies are made afresh.
 */
export function strategySnapshot(
  snapshot: MarketSnapshot,
  higher: Bars | null,
  position: number,
  nav: number,
  own: PrivateBars = new PrivateBars(),
): StrategySnapshot {
  return new StrategyView(snapshot, higher, position, nav, own);
}

/** Why a returned value breaks the signal contract, or null when it keeps it. */
export function contractBreach(value: unknown, agent: string, symbol: string): string | null {
  if (value === null || typeof value !== 'object')
    return `returned ${value === undefined ? 'undefined' : typeof value}, not a Signal or null`;
  if (typeof (value as { then?: unknown }).then === 'function')
    return 'returned a Promise: analyse must return the Signal itself (it cannot be async)';
  const s = value as Partial<Signal>;
  if (s.agent !== agent) return `signal names agent ${JSON.stringify(s.agent)}, not ${JSON.stringify(agent)}`;
  if (s.symbol !== symbol) return `signal for ${JSON.stringify(s.symbol)} returned when analysing ${symbol}`;
  if (!Number.isInteger(s.direction))
    return `direction must be an integer (1 long, -1 short, 0 flat), got ${JSON.stringify(s.direction)}`;
  if (!(typeof s.confidence === 'number' && s.confidence >= 0 && s.confidence <= 1))
    return `confidence must be a number in [0, 1], got ${JSON.stringify(s.confidence)}`;
  if (s.target !== undefined) return targetBreach(s.target);
  return null;
}

const TARGET_FIELDS = ['qty', 'notional', 'navFraction'] as const;
/** Above this a NAV fraction is surely a percentage (50 meaning half): refused rather than levered 50×. */
const MAX_NAV_FRACTION = 10;

/** Why a signal's `target` breaks the contract (SignalTarget), or null. */
function targetBreach(target: unknown): string | null {
  if (target === null || typeof target !== 'object' || Array.isArray(target))
    return `target must be an object with exactly one of ${TARGET_FIELDS.join(', ')}, got ${JSON.stringify(target)}`;
  const keys = Object.keys(target);
  const unknown = keys.find((k) => !(TARGET_FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined)
    return `target has an unknown field ${JSON.stringify(unknown)}: it takes exactly one of ${TARGET_FIELDS.join(', ')}`;
  if (keys.length !== 1) return `target must have exactly one of ${TARGET_FIELDS.join(', ')}, got ${keys.length}`;
  const key = keys[0]!;
  const value = (target as Record<string, unknown>)[key];
  if (!(typeof value === 'number' && Number.isFinite(value) && value > 0))
    return `target.${key} must be a finite number > 0, got ${JSON.stringify(value)}`;
  if (key === 'navFraction' && value > MAX_NAV_FRACTION)
    return `target.navFraction ${value} is not a fraction: 0.5 is half of NAV (at most ${MAX_NAV_FRACTION})`;
  return null;
}

/**
 * Market vocabulary: instruments and the per-symbol snapshot every strategy, guard and the paper
 * venue read. Prices in quote currency (USDT), quantities in base units.
 */
import type { Bars } from './bars.js';
import { floorToStep, roundQuote } from './steps.js';

/** `perp`: a perpetual future (can go short, pays funding); `spot`: holdings only, never short. */
export type InstrumentKind = 'perp' | 'spot';

/** A tradable symbol and its exchange rules (sizes in base units, prices in USDT). */
export interface Instrument {
  symbol: string;
  kind: InstrumentKind;
  /** Quantities are whole multiples of this. */
  lotSize: number;
  /** Prices are whole multiples of this. */
  tickSize: number;
  /** Smallest order notional (qty × price) the venue accepts. */
  minNotional: number;
  /** Largest quantity of one limit order (Binance LOT_SIZE maxQty); absent: no limit known. */
  maxQty?: number;
  /** Largest quantity of one market order (Binance MARKET_LOT_SIZE maxQty); absent: no limit known. */
  marketMaxQty?: number;
  /**
   * Binance PERCENT_PRICE: a BUY may not be priced above `up` × the mark, a SELL not below `down` × the
   * mark (a market order: its best counterparty price). Absent: no band known.
   */
  percentPrice?: { up: number; down: number };
}

/** One level of the order book: a price and the base quantity resting there. */
export interface BookLevel {
  price: number;
  qty: number;
}

export interface MarketSnapshot {
  symbol: string;
  /** Epoch ms of the snapshot. */
  ts: number;
  /** Last traded price. */
  last: number;
  bid: number;
  ask: number;
  /** Best first (highest bid first). */
  bids: BookLevel[];
  /** Best first (lowest ask first). */
  asks: BookLevel[];
  /**
   * The feed's window of base-timeframe candles, oldest first; the last one is the bar that just
   * closed (its close equals `last`). Views of the feed's memory, valid for this cycle (bars.ts).
   */
  bars: Bars;
  /** Base-unit volume traded over the last `VOLUME_WINDOW_BARS` bars (what the liquidity guard reads). */
  volume: number;
  /** Current perpetual funding rate per funding interval (e.g. 0.0001 = 0.01 %); null for spot. */
  fundingRate: number | null;
  /** Epoch ms of the next funding payment; null for spot. */
  nextFundingTs: number | null;
  /**
   * The funding settlements since the previous snapshot of this feed (after it, up to and including
   * `ts`; the latest only on a feed's first snapshot), each with the rate it was actually settled at,
   * when the feed knows them (a replay reads them from its funding file); absent otherwise. The paper
   * venue pays each at its own rate rather than at the rate announced before it; a bar longer than
   * the funding interval holds several. Past information: strategies are not shown it
   * (strategy-input.ts), and it reveals nothing about the next rate.
   */
  settledFunding?: ReadonlyArray<{ readonly ts: number; readonly rate: number }>;
  /**
   * Replays only (the file feed sets it; the synthetic and live feeds do not): how the paper venue
   * fills against this bar. It may look one bar ahead, which only execution may: strategies never
   * receive it (StrategySnapshot omits it) and the risk engine does not read it.
   */
  execution?: BarExecution;
}

/**
 * Where a replay's takers fill (FILL_MODEL): `next_open`, the default, at the open of the bar after
 * the one the decision saw; `close`, at the close of the bar the decision saw (the older behaviour).
 */
export type FillModel = 'close' | 'next_open';
export const FILL_MODELS: readonly FillModel[] = ['close', 'next_open'];

/**
 * SPREAD_MODEL: the touch of the book a replayed candle implies (adapters/market-data/file/
 * derived-book.ts) — `derived` from the candle's range (the default), `fixed_bps` of the close, or
 * `none` (bid = ask = close: fills at the candle's price, as a backtest without spread assumes).
 */
export type SpreadModel = { model: 'derived' } | { model: 'none' } | { model: 'fixed_bps'; bps: number };
export const SPREAD_MODELS = ['derived', 'none', 'fixed_bps'] as const;

/**
 * MARK_PRICE: what positions are valued at — `mid`, the book's (bid + ask) / 2 (the default), or
 * `close`, the last price (in a replay the candle's close, so a position is marked as a backtester
 * without spread marks it).
 */
export type MarkPrice = 'mid' | 'close';
export const MARK_PRICES: readonly MarkPrice[] = ['mid', 'close'];

/**
 * A book's quotes and levels: what a taker walks; `last`, when the book knows it, is the price it was
 * placed around (a replay's next open, or its close), which MARK_PRICE=close marks a fill at.
 */
export type Quotes = Pick<MarketSnapshot, 'bid' | 'ask' | 'bids' | 'asks'> & { readonly last?: number };

/** Fill rules of a replayed bar (docs/strategies/data-format.md, "Fill models"). */
export interface BarExecution {
  /**
   * The book a taker (market order, marketable limit) deciding on this snapshot fills against:
   * FILL_MODEL=next_open, the next bar's open with this bar's spread and depth; close, this
   * snapshot's own book. Null when the data has no next bar (next_open on the last candle).
   * Computed on first call: most snapshots never see an order.
   */
  taker(): Quotes | null;
  /** The bar just replayed: a resting limit fills when its range crosses the limit. */
  readonly high: number;
  readonly low: number;
  /** Its base volume: resting fills take at most a share of it (FILL_VOLUME_SHARE). */
  readonly volume: number;
}

/**
 * Bars the `volume` figure sums: an hour of one-minute candles, whatever the window strategies need,
 * so a longer strategy lookback never loosens the liquidity guard.
 */
export const VOLUME_WINDOW_BARS = 60;

/** All symbols' snapshots for one cycle. */
export type MarketView = ReadonlyMap<string, MarketSnapshot>;

/**
 * Rounds a quantity down to the lot size (never more than asked for). Kept as the named entry the
 * sizing and deleveraging code call; the rounding itself lives in steps.ts with everything else.
 */
export function floorToLot(qty: number, lotSize: number): number {
  if (!(lotSize > 0)) throw new RangeError('lotSize must be positive');
  return floorToStep(qty, lotSize);
}

/**
 * The price a position in the symbol is valued at: mid when both quotes are sane, else the last
 * trade, else null. The paper venue marks its account with it, and the risk engine and the
 * allocator value every symbol with it, so a ratio the engine approves is the ratio the account
 * reports once the order fills (valuing at `last` while the venue marked at mid let an order that
 * topped net exposure up to 1.5 at last read 1.5000024). Kept to QUOTE_STEP like every amount the
 * venue reports, so a mid of 0.1 and 0.2 reads 0.15.
 */
export function markOf(bid: number, ask: number, last: number): number | null {
  if (bid > 0 && ask >= bid && Number.isFinite(ask)) return roundQuote((bid + ask) / 2);
  if (last > 0 && Number.isFinite(last)) return last;
  return null;
}

/** The mark MARK_PRICE asks for: markOf (the mid) for `mid`; for `close`, the last price when it is sane, else the mid. */
export function markPriceOf(rule: MarkPrice, bid: number, ask: number, last: number): number | null {
  if (rule === 'close' && last > 0 && Number.isFinite(last)) return last;
  return markOf(bid, ask, last);
}

/**
 * The mark of a snapshot as the venue takes it under MARK_PRICE (`rule`, the mid by default),
 * falling back to `last` (which the callers have already checked).
 */
export function valuationPrice(
  snapshot: Pick<MarketSnapshot, 'bid' | 'ask' | 'last'>,
  rule: MarkPrice = 'mid',
): number {
  return markPriceOf(rule, snapshot.bid, snapshot.ask, snapshot.last) ?? snapshot.last;
}

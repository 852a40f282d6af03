/**
 * The fake exchange's trading side: orders and their matching against the fake's own market (the
 * deterministic book of market-data.ts, or one a test moved to another price), the account they
 * move (ledger.ts) and the dead-man's switch (countdown.ts).
 *
 * Matching, as on a real venue: a market order walks the book level by level (what the book cannot
 * fill expires); a limit order takes what crosses at placement and rests the rest (IOC expires it,
 * FOK fills all or nothing, GTX — post-only — is refused if it would take). A resting order fills
 * at its own price, as maker, once the book crosses it. Liquidity taken is gone until the book
 * changes (the next minute, or a price move). Reduce-only orders never fill past flat. `settle()`
 * applies what the clock and the price now imply; the server calls it on every request and on a
 * 10 ms timer, a test calls it after moving time.
 */
import { errors } from './binance-errors.js';
import { AccountSettings } from './account-settings.js';
import { AlgoOrders } from './algo-orders.js';
import { Countdowns } from './countdown.js';
import { decimalsOf, floorToStep, round } from './decimals.js';
import { Ledger, LEVERAGE } from './ledger.js';
import type { FeeRates, Position } from './ledger.js';
import { bookAt, instrumentById, unit } from './market-data.js';
import type { FakeInstrument } from './market-data.js';
import type { NewOrder, OrderType, Side, TimeInForce } from './order-rules.js';

export type OrderStatus = 'NEW' | 'PARTIALLY_FILLED' | 'FILLED' | 'CANCELED' | 'EXPIRED';

export interface OrderRecord {
  orderId: number;
  clientOrderId: string;
  symbol: string;
  side: Side;
  type: OrderType;
  /** Binance shows GTC on market orders too. */
  timeInForce: TimeInForce;
  /** 0 for a market order. */
  price: number;
  origQty: number;
  executedQty: number;
  /** Quote filled so far (sum of qty × price). */
  cumQuote: number;
  status: OrderStatus;
  reduceOnly: boolean;
  time: number;
  updateTime: number;
  /** Placed by a test's hand "outside the system" (the exchange's web page), not through the API. */
  foreign: boolean;
}

export interface TradeRecord {
  id: number;
  orderId: number;
  symbol: string;
  side: Side;
  price: number;
  qty: number;
  quoteQty: number;
  commission: number;
  realizedPnl: number;
  maker: boolean;
  time: number;
}

/** One line of the account's income history (GET /fapi/v1/income): what moved the wallet, and why. */
export interface IncomeRecord {
  tranId: number;
  symbol: string;
  incomeType: 'COMMISSION' | 'REALIZED_PNL' | 'FUNDING_FEE';
  /** Signed: a fee or a funding payment made is negative. */
  income: number;
  /** What it is paid in: USDT, or BNB for a fee paid with the BNB discount. */
  asset: string;
  time: number;
  tradeId: number | null;
}

/** The account's figures at the current marks (USDT). */
export interface AccountFigures {
  wallet: number;
  unrealized: number;
  positionMargin: number;
  openOrderMargin: number;
  available: number;
  positions: Array<Position & { mark: number; unrealized: number; notional: number; margin: number }>;
}

export interface VenueOptions {
  seed: number;
  now: () => number;
  deposit: number;
  fees: FeeRates;
}

type Level = [price: number, qty: number];

export class Venue {
  readonly ledger: Ledger;
  readonly countdowns = new Countdowns();
  /** Conditional orders (STOP_MARKET), apart from the book as Binance keeps them (algo-orders.ts). */
  readonly algo = new AlgoOrders();
  /** Position mode, multi-assets mode, leverage and margin type (account-settings.ts). */
  readonly settings = new AccountSettings();
  private readonly orders: OrderRecord[] = [];
  private readonly fills: TradeRecord[] = [];
  private readonly incomes: IncomeRecord[] = [];
  /**
   * The next income id, per income type: Binance's tranId is unique only within one incomeType for an
   * account (its docs' example shows a TRANSFER and a COMMISSION with the same one), so the fake
   * numbers each type on its own and the same id comes up under different types.
   */
  private readonly nextTranId = new Map<IncomeRecord['incomeType'], number>();
  private readonly prices = new Map<string, number>();
  /** Liquidity taken from the current book, per symbol: its stamp and qty taken per side and price. */
  private readonly taken = new Map<string, { stamp: string; qty: Map<string, number> }>();
  private partial: { fraction: number; left: number } | null = null;
  private nextOrderId = 4_000_000_001;
  private nextTradeId = 300_000_001;
  private priceMoves = 0;

  constructor(private readonly options: VenueOptions) {
    this.ledger = new Ledger(options.deposit, options.fees, options.now());
  }

  /** The exchange's clock. */
  now(): number {
    return this.options.now();
  }

  // ---- the market -------------------------------------------------------------------------

  /** The book now, as served by GET /fapi/v1/depth, before liquidity the fake's orders took. */
  book(inst: FakeInstrument): { bids: Level[]; asks: Level[] } {
    return bookAt(this.options.seed, inst, this.options.now(), this.prices.get(inst.id));
  }

  /** The mark price: the book's mid. */
  mark(inst: FakeInstrument): number {
    const { bids, asks } = this.book(inst);
    return round((bids[0]![0] + asks[0]![0]) / 2, decimalsOf(inst.tickSize) + 1);
  }

  /** Moves the market of `symbol` to `mid` (null: back to the deterministic prices). */
  setPrice(symbol: string, mid: number | null): void {
    if (mid === null) this.prices.delete(symbol);
    else this.prices.set(symbol, mid);
    this.priceMoves++;
  }

  // ---- orders -----------------------------------------------------------------------------

  /** Places an order that passed order-rules.ts; throws a BinanceError when the account refuses it. */
  /**
   * `postOnlyTaking`: what a post-only order that would take meets — refused (Binance's -5022) or
   * accepted and expired at once (Bybit's EC_PostOnlyWillTakeLiquidity).
   */
  place(spec: NewOrder, foreign = false, postOnlyTaking: 'refuse' | 'expire' = 'refuse'): OrderRecord {
    this.settle();
    const inst = this.instrument(spec.symbol);
    const now = this.options.now();
    if (spec.clientOrderId && this.open(spec.symbol).some((o) => o.clientOrderId === spec.clientOrderId)) {
      throw errors.duplicateClientOrderId();
    }
    const position = this.ledger.position(spec.symbol).qty;
    if (spec.reduceOnly && (position === 0 || (spec.side === 'BUY') === position > 0)) {
      throw errors.reduceOnlyRejected();
    }
    const wouldTake = spec.timeInForce === 'GTX' && this.crossing(inst, spec.side, spec.price!).length > 0;
    if (wouldTake && postOnlyTaking === 'refuse') throw errors.postOnlyWouldTake();
    if (!spec.reduceOnly) this.checkMargin(inst, spec, position);

    const orderId = this.nextOrderId++;
    const order: OrderRecord = {
      orderId,
      clientOrderId: spec.clientOrderId ?? this.madeUpClientId(orderId, foreign),
      symbol: spec.symbol,
      side: spec.side,
      type: spec.type,
      timeInForce: spec.timeInForce ?? 'GTC',
      price: spec.price ?? 0,
      origQty: spec.qty,
      executedQty: 0,
      cumQuote: 0,
      status: 'NEW',
      reduceOnly: spec.reduceOnly,
      time: now,
      updateTime: now,
      foreign,
    };
    this.orders.push(order);
    if (wouldTake) {
      order.status = 'EXPIRED';
      return order;
    }
    if (spec.timeInForce === 'FOK' && this.depth(inst, spec.side, spec.price!) < spec.qty) {
      order.status = 'EXPIRED';
      return order;
    }
    if (spec.timeInForce !== 'GTX') this.match(order, inst, false);
    // Only GTC and post-only rest; what a market, IOC or FOK order did not fill is expired.
    const rests = spec.timeInForce === 'GTC' || spec.timeInForce === 'GTX';
    if (!rests && order.status !== 'FILLED') order.status = 'EXPIRED';
    return order;
  }

  cancel(symbol: string, ref: { orderId?: number; clientOrderId?: string }): OrderRecord {
    this.settle();
    const order = this.find(symbol, ref);
    if (!order || !isOpen(order)) throw errors.unknownOrderSent();
    order.status = 'CANCELED';
    order.updateTime = this.options.now();
    return order;
  }

  cancelAll(symbol: string): OrderRecord[] {
    this.settle();
    const now = this.options.now();
    const open = this.open(symbol);
    for (const order of open) {
      order.status = 'CANCELED';
      order.updateTime = now;
    }
    return open;
  }

  /** The order with this id, or the latest with this client order id (ids repeat once an order is done). */
  find(symbol: string, ref: { orderId?: number; clientOrderId?: string }): OrderRecord | undefined {
    const mine = this.orders.filter((o) => o.symbol === symbol);
    if (ref.orderId !== undefined) return mine.find((o) => o.orderId === ref.orderId);
    return mine.reverse().find((o) => o.clientOrderId === ref.clientOrderId);
  }

  /** Every order placed under this client order id, any status (Binance accepts a reused id once the first is done). */
  placedUnder(clientOrderId: string): OrderRecord[] {
    return this.orders.filter((o) => o.clientOrderId === clientOrderId);
  }

  /** Every order, oldest first (the user-data stream diffs them). */
  allOrders(): readonly OrderRecord[] {
    return this.orders;
  }

  /** Every order, any status, oldest first (dialects whose order queries list closed orders too). */
  all(symbol?: string): OrderRecord[] {
    return this.orders.filter((o) => symbol === undefined || o.symbol === symbol);
  }

  open(symbol?: string): OrderRecord[] {
    return this.orders.filter((o) => isOpen(o) && (symbol === undefined || o.symbol === symbol));
  }

  /** The income history, oldest first. */
  incomeHistory(): IncomeRecord[] {
    return [...this.incomes];
  }

  /**
   * A funding settlement on `symbol` at `rate`: longs pay shorts `rate` × the position's value at the
   * mark (a negative rate the other way round), booked to the wallet and the income history.
   */
  payFunding(symbol: string, rate: number): number {
    const qty = this.ledger.position(symbol).qty;
    const paid = round(-qty * this.mark(this.instrument(symbol)) * rate, 8);
    if (qty === 0) return 0;
    this.ledger.wallet = round(this.ledger.wallet + paid, 8);
    this.income(symbol, 'FUNDING_FEE', paid, this.options.now(), null);
    return paid;
  }

  /**
   * A fee booked in another asset (BNB, with the BNB fee discount on): only in the income history,
   * as a test's hand; the USDT wallet is not touched.
   */
  feeIn(asset: string, symbol: string, fee: number): void {
    this.income(symbol, 'COMMISSION', -fee, this.options.now(), null, asset);
  }

  private income(
    symbol: string,
    incomeType: IncomeRecord['incomeType'],
    income: number,
    time: number,
    tradeId: number | null,
    asset = 'USDT',
  ) {
    const tranId = this.nextTranId.get(incomeType) ?? 9_000_000_001;
    this.nextTranId.set(incomeType, tranId + 1);
    this.incomes.push({ tranId, symbol, incomeType, income, asset, time, tradeId });
  }

  /**
   * How far GET /fapi/v1/userTrades lags the orders and positions (ms): Binance's trade history can
   * show a fill seconds after the order and the position do. 0 by default.
   */
  tradeHistoryLagMs = 0;

  trades(symbol?: string): TradeRecord[] {
    return this.fills.filter((t) => symbol === undefined || t.symbol === symbol);
  }

  /**
   * A position changed behind the system's back (a manual trade, a liquidation, ADL): set to `qty`
   * (signed) entered at `entryPrice`, the mark by default; no order, no trade, no fee.
   */
  setPosition(symbol: string, qty: number, entryPrice?: number): void {
    const inst = this.instrument(symbol);
    this.ledger.set(symbol, qty, entryPrice ?? this.mark(inst), this.options.now());
  }

  /** The next `count` matches fill only `fraction` of what they could (at least one lot). */
  partialFills(fraction: number, count: number): void {
    this.partial = { fraction, left: count };
  }

  // ---- the clock --------------------------------------------------------------------------

  /** Applies what the clock and prices imply now: expired countdowns cancel, crossed orders fill. */
  settle(): void {
    const now = this.options.now();
    for (const { symbol, stopsToo } of this.countdowns.expired(now)) {
      for (const order of this.open(symbol)) {
        order.status = 'CANCELED';
        order.updateTime = now;
      }
      // The pessimistic reading of Binance's docs ("all open orders of the symbol"): stops too.
      if (stopsToo) this.algo.cancelAll(symbol, now);
    }
    this.algo.trigger(
      (symbol) => this.mark(this.instrument(symbol)),
      (symbol) => this.ledger.position(symbol).qty,
      (stop, qty) =>
        this.place({
          symbol: stop.symbol,
          side: stop.side,
          type: 'MARKET',
          timeInForce: null,
          qty,
          price: null,
          reduceOnly: true,
          clientOrderId: stop.clientAlgoId,
        }).orderId,
      now,
    );
    for (const order of this.open()) {
      if (order.type === 'LIMIT') this.match(order, this.instrument(order.symbol), true);
    }
  }

  // ---- the account ------------------------------------------------------------------------

  account(): AccountFigures {
    const positions = this.ledger.open().map((p) => {
      const mark = this.mark(this.instrument(p.symbol));
      const notional = p.qty * mark;
      const unrealized = round((mark - p.entryPrice) * p.qty, 8);
      return { ...p, mark, unrealized, notional, margin: Math.abs(notional) / LEVERAGE };
    });
    const unrealized = positions.reduce((sum, p) => sum + p.unrealized, 0);
    const positionMargin = positions.reduce((sum, p) => sum + p.margin, 0);
    const openOrderMargin = this.open()
      .filter((o) => !o.reduceOnly && o.type === 'LIMIT')
      .reduce((sum, o) => sum + ((o.origQty - o.executedQty) * o.price) / LEVERAGE, 0);
    const wallet = this.ledger.wallet;
    const available = wallet + unrealized - positionMargin - openOrderMargin;
    return { wallet, unrealized, positionMargin, openOrderMargin, available, positions };
  }

  instrument(symbol: string): FakeInstrument {
    const inst = instrumentById(symbol);
    if (!inst) throw errors.invalidSymbol();
    return inst;
  }

  // ---- matching ---------------------------------------------------------------------------

  /**
   * Fills `order` against the book levels that cross it: as taker at each level's price, or, for a
   * resting order (`maker`), at its own price. Reduce-only orders stop at flat.
   */
  private match(order: OrderRecord, inst: FakeInstrument, maker: boolean): void {
    let want = round(order.origQty - order.executedQty, inst.quantityPrecision);
    if (order.reduceOnly) {
      const position = this.ledger.position(order.symbol).qty;
      const closable = (order.side === 'BUY') === position < 0 ? Math.abs(position) : 0;
      if (closable === 0) {
        order.status = 'EXPIRED';
        order.updateTime = this.options.now();
        return;
      }
      want = Math.min(want, closable);
    }
    const levels = this.crossing(inst, order.side, order.type === 'MARKET' ? null : order.price);
    if (levels.length === 0) return;
    const partial = this.partial !== null;
    if (this.partial) {
      want = Math.max(floorToStep(want * this.partial.fraction, inst.stepSize), Number(inst.stepSize));
      if (--this.partial.left <= 0) this.partial = null;
    }
    // A partial limit fill: someone else took the rest of what crossed it, until the book changes
    // (else the rest would fill on the next settle). What a market order left simply expires.
    const othersTake = partial && order.type === 'LIMIT';
    for (const [price, available] of levels) {
      const qty = round(Math.min(available, want), inst.quantityPrecision);
      if (qty > 0) this.execute(order, inst, qty, maker ? order.price : price, maker);
      this.take(inst, order.side, price, othersTake ? available : qty);
      want = round(want - qty, inst.quantityPrecision);
      if (want <= 0 && !othersTake) break;
    }
  }

  private execute(order: OrderRecord, inst: FakeInstrument, qty: number, price: number, maker: boolean): void {
    const now = this.options.now();
    const qd = inst.quantityPrecision;
    const { realizedPnl, commission } = this.ledger.fill(order.symbol, order.side, qty, price, maker, now, qd);
    order.executedQty = round(order.executedQty + qty, qd);
    order.cumQuote = round(order.cumQuote + qty * price, 8);
    order.status = order.executedQty >= order.origQty ? 'FILLED' : 'PARTIALLY_FILLED';
    order.updateTime = now;
    const tradeId = this.nextTradeId++;
    this.income(order.symbol, 'COMMISSION', -commission, now, tradeId);
    if (realizedPnl !== 0) this.income(order.symbol, 'REALIZED_PNL', realizedPnl, now, tradeId);
    this.fills.push({
      id: tradeId,
      orderId: order.orderId,
      symbol: order.symbol,
      side: order.side,
      price,
      qty,
      quoteQty: round(qty * price, 8),
      commission,
      realizedPnl,
      maker,
      time: now,
    });
  }

  /** The opposite side's levels a `side` order at `limit` (null: any price) would take, less what was taken. */
  private crossing(inst: FakeInstrument, side: Side, limit: number | null): Level[] {
    const book = this.book(inst);
    const levels = side === 'BUY' ? book.asks : book.bids;
    const taken = this.takenFrom(inst);
    const out: Level[] = [];
    for (const [price, qty] of levels) {
      if (limit !== null && (side === 'BUY' ? price > limit : price < limit)) break;
      const left = round(qty - (taken.get(`${side}|${price}`) ?? 0), inst.quantityPrecision);
      if (left > 0) out.push([price, left]);
    }
    return out;
  }

  private depth(inst: FakeInstrument, side: Side, limit: number): number {
    return this.crossing(inst, side, limit).reduce((sum, [, qty]) => sum + qty, 0);
  }

  private take(inst: FakeInstrument, side: Side, price: number, qty: number): void {
    const taken = this.takenFrom(inst);
    const key = `${side}|${price}`;
    taken.set(key, round((taken.get(key) ?? 0) + qty, inst.quantityPrecision));
  }

  /** What was taken from the book in force now; a new minute or a price move brings a fresh book. */
  private takenFrom(inst: FakeInstrument): Map<string, number> {
    const stamp = `${Math.floor(this.options.now() / 60_000)}|${this.priceMoves}`;
    let entry = this.taken.get(inst.id);
    if (!entry || entry.stamp !== stamp) {
      entry = { stamp, qty: new Map() };
      this.taken.set(inst.id, entry);
    }
    return entry.qty;
  }

  private checkMargin(inst: FakeInstrument, spec: NewOrder, position: number): void {
    const opposing = (spec.side === 'BUY') === position < 0;
    const adding = opposing ? Math.max(0, spec.qty - Math.abs(position)) : spec.qty;
    const required = (adding * (spec.price ?? this.mark(inst))) / LEVERAGE;
    if (required > this.account().available) throw errors.marginInsufficient();
  }

  /** Binance makes up a 22-character id when none is sent; an order from the web page gets web_…. */
  private madeUpClientId(orderId: number, foreign: boolean): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const id = Array.from({ length: 22 }, (_, i) => alphabet[Math.floor(unit(this.options.seed, orderId, i) * 62)])
      .join('')
      .slice(0, foreign ? 18 : 22);
    return foreign ? `web_${id}` : id;
  }
}

function isOpen(order: OrderRecord): boolean {
  return order.status === 'NEW' || order.status === 'PARTIALLY_FILLED';
}

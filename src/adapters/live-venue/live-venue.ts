/**
 * The live venue: the Venue port on a real exchange through ccxt (issue 21, items 1 and 4), first
 * Binance USDⓈ-M perpetuals. The exchange is the truth: the account, positions and open orders are
 * read from it on every call, never kept from memory; what this adapter remembers is only which
 * exchange orders are ours (by client order id) and which of their trades it has reported.
 *
 * Submitting is idempotent on the client order id (./client-ids.ts maps ours to the exchange's):
 *  - an id this venue has seen is never sent again: it is looked up and returned (`duplicate`);
 *  - a failure that may have left the request carried out (timeout, dropped connection, 5xx) makes the
 *    order's outcome unknown: it is looked up by client id until the exchange shows it, or until its
 *    recvWindow has passed with the exchange saying it does not exist (the request can no longer be
 *    accepted), and only then reported `rejected` (NOT_PLACED). While unknown, nothing is resent;
 *  - a 429/418 was refused unprocessed: the order is refused RATE_LIMITED, and so is every order until
 *    the exchange's wait is over (Retry-After, a ban's end), without a request: the request gate
 *    (./request-gate.ts) holds back every request of the client meanwhile, reads included. Nothing
 *    waits here: a kill must not queue behind it;
 *  - a refusal by the exchange is a `rejected` order with the exchange's reason.
 * Fills are the exchange's own trades (fetchMyTrades by order), each reported once. Every call has
 * ccxt's per-request timeout as its deadline (the exchange client's `timeout`, EXCHANGE_TIMEOUT_MS);
 * whether the exchange answers at all is watched on the client (./exchange-reachability.ts).
 */
import type { Exchange, Order, Position as CcxtPosition, Trade } from 'ccxt';
import type { MarketView } from '../../domain/market.js';
import type { Fill, OrderRequest, VenueOrder } from '../../domain/orders.js';
import type { AccountSnapshot, Position } from '../../domain/portfolio.js';
import { DEFAULT_DRAWDOWN_WINDOW_MS, observePeak, peakOf, resetPeaks } from '../../domain/risk/peak-window.js';
import type { PeakEntry } from '../../domain/risk/peak-window.js';
import type { MarketUpdate, SubmitResult, Venue } from '../../ports/venue.js';
import { toContracts } from '../exchanges/contract-units.js';
import { toFill, toPosition, toVenueOrder } from './ccxt-mapping.js';
import type { SymbolMap } from './ccxt-mapping.js';
import { exchangeClientId } from './client-ids.js';
import { findProfile, profileOf } from '../exchanges/registry.js';
import { SpotHoldings } from './spot-holdings.js';
import { roundToStep } from '../../domain/steps.js';
import type { ExchangeStop } from '../../domain/exchange-stops.js';
import { isProtectiveStopId, ProtectiveStops } from './protective-stops.js';
import { CountdownArming } from './countdown-arming.js';
import { failureKind, rejectReason } from './exchange-errors.js';
import type { CcxtErrorClasses } from './exchange-errors.js';
import { readRetried } from './read-retry.js';
import { saysNotProcessed } from './refusal-codes.js';
import type { IncomeTally } from './income-tally.js';
import type { UserStream } from './user-stream.js';
import { asClose, RequestWithheldError } from './request-gate.js';
import type { RequestGate } from './request-gate.js';
import type { RequestWeight } from '../../domain/request-weight.js';

export interface LiveVenueOptions {
  /** ccxt, keys set, pointed where it should be; `loadMarkets` is called by `open`. */
  exchange: Exchange;
  errors: CcxtErrorClasses;
  /** The gate on `exchange`'s transport (./request-gate.ts): whether the exchange asked to wait (429/418). */
  gate: RequestGate;
  symbols: SymbolMap;
  /** Wall time, epoch ms: for the orders' stamps. */
  now(): number;
  /**
   * Milliseconds that never step, for durations: how long an order has been unknown (the 429/418
   * cool-off is the gate's, on its own monotonic clock). `now` when omitted (a simulated clock never steps).
   */
  monotonic?(): number;
  sleep(ms: number): Promise<void>;
  /** How long a request can still be accepted after it was sent: the exchange's recvWindow (ccxt's default 10 s). */
  recvWindowMs?: number;
  /** Pause between lookups of an order whose outcome is unknown. Default 500 ms. */
  lookupIntervalMs?: number;
  /** RISK_DRAWDOWN_WINDOW: the peak NAV the drawdown is measured from. */
  drawdownWindowMs?: number;
  /**
   * Epoch ms the window's peaks are timed on: one a wall-clock step cannot move
   * (runtime/trading/steady-clock.ts), so a step never ages them. `now` when omitted.
   */
  windowNow?(): number;
  /**
   * The exchange's dead-man's switch, armed for every traded symbol on every onMarket (each cycle):
   * if no cycle re-arms it within this many ms, the exchange cancels the symbol's open orders itself.
   * Null or absent: not armed (an exchange without one: its profile's `deadMansSwitchNote`).
   */
  countdownMs?: number | null;
  /** Calls the exchange's countdown for one symbol (its profile's `deadMansSwitch`). */
  armCountdown?: (symbolId: string, countdownMs: number) => Promise<unknown>;
  /**
   * A dead-man's switch held by a connection instead (Bybit's DCP; ./disconnect-guard.ts): a cycle
   * whose connection has been down `graceMs` or longer fails before it reads or sends anything, as
   * one whose countdown cannot be armed does; `close()` stops holding it. Absent: none.
   */
  disconnectSwitch?: {
    graceMs: number;
    down(): { forMs: number; reason: string } | null;
    stop(): void;
  };
  /**
   * Rest a close-position stop on the exchange for each open position (./protective-stops.ts,
   * EXCHANGE_STOPS): `protect` places, moves and cancels them; the countdown is never armed over one.
   */
  exchangeStops?: boolean;
  /** A position differing from what the system's own fills explain by more than this (base units) is drift. Default 1e-9. */
  positionTolerance?: number;
  /**
   * The drawdown reference across restarts: the window's NAV highs as last saved (none on a first
   * start), and where to save them when they change (the trading process: the store).
   */
  peaks?: { initial: PeakEntry[]; save(entries: PeakEntry[]): Promise<void> };
  /** The account's fees and funding from the exchange's income history (./income-tally.ts); without it, 0. */
  income?: IncomeTally;
  /**
   * The exchange's user-data stream (./user-stream.ts): while it is up, a resting order it has been
   * up for since the order was last known is not polled; its fills and updates come from the stream.
   * Absent: every resting order is polled each cycle.
   */
  userStream?: UserStream;
  /** Told every reconciliation that cancelled a foreign order or found drift, and when drift ends. */
  report?: (reconciliation: Reconciliation) => void;
}

/** What a reconciliation found and did (./live-venue.ts reconcile). */
export interface Reconciliation {
  /** Open orders on the traded symbols that are not this process's, cancelled by the policy. */
  foreignCancelled: VenueOrder[];
  /** Positions the exchange holds that the system's own fills do not explain. */
  drift: Array<{ symbol: string; expected: number; actual: number }>;
  /** The first reconciliation adopts the exchange's positions as the starting point. */
  adopted: boolean;
}

/** An order of ours: the request, the exchange's id once known, and the trades already reported. */
interface Tracked {
  request: OrderRequest;
  exchangeClientId: string;
  /** Sent, but the exchange has not shown it yet (a lost answer): never resent. Epoch ms, for its stamp. */
  unknownSince: number | null;
  /** The same moment on the monotonic clock: how long it has been unknown is judged on it. */
  unknownAt: number | null;
  last: VenueOrder | null;
  reported: Set<string>;
  /** Quantity of the fills reported; below `last.filledQty` the order is polled until its trades are read. */
  reportedQty: number;
  /**
   * When (monotonic) the request that last showed the order's state was sent, or null: a user-data
   * stream up since before then has pushed every change after it, so the order need not be polled.
   */
  knownAt: number | null;
}

/** Orders remembered as ours (for duplicates and fills) before the oldest finished ones are forgotten. */
const MAX_TRACKED = 10_000;

/** How long the user-data stream alone vouches for a resting order before it is polled again, ms. */
const STREAM_TRUST_MS = 30_000;
/** Beyond the recvWindow before an order no lookup finds is called NOT_PLACED. */
const NOT_PLACED_MARGIN_MS = 5_000;

export class LiveVenue implements Venue {
  readonly mode = 'live';
  /** Each symbol's orders are independent on the exchange: a kill's closes go out side by side. */
  readonly parallelSymbols = true;
  private readonly ours = new Map<string, Tracked>();
  /** Submissions under way, by client order id (see submit). */
  private readonly submitting = new Map<string, Promise<SubmitResult>>();
  private readonly byExchangeId = new Map<string, Tracked>();
  private peaks: PeakEntry[] = [];
  /** Positions the system's own fills explain, from the exchange's at the first reconciliation. */
  private expected: Map<string, number> | null = null;
  /** Drift found by the last reconciliation: while any, nothing that adds exposure is sent. */
  private drift: Reconciliation['drift'] = [];
  /** Fills of ours a cancel found (an order that filled on its way to being cancelled), until taken. */
  private readonly cancelFills: Fill[] = [];
  private readonly elapsed = (): number => (this.o.monotonic ? this.o.monotonic() : this.o.now());
  private readonly recvWindowMs: number;
  private readonly lookupIntervalMs: number;
  private readonly windowMs: number;
  /** How long a submit looks up an order whose outcome is unknown: its recvWindow and half a minute more. */
  private readonly patienceMs: number;
  private readonly stops: ProtectiveStops | null;
  private readonly arming: CountdownArming | null;
  /** The exchange's switch covers the account, not a symbol (its profile's `deadMansSwitchScope`). */
  private readonly accountWideSwitch: boolean;
  /** A spot exchange's balances read as positions (its profile's `market`), else null: perpetuals. */
  private readonly spot: SpotHoldings | null;

  constructor(private readonly o: LiveVenueOptions) {
    this.recvWindowMs = o.recvWindowMs ?? 10_000;
    this.lookupIntervalMs = o.lookupIntervalMs ?? 500;
    this.windowMs = o.drawdownWindowMs ?? DEFAULT_DRAWDOWN_WINDOW_MS;
    this.patienceMs = this.recvWindowMs + 30_000;
    this.peaks = o.peaks ? o.peaks.initial.map(([at, nav]) => [at, nav] as PeakEntry) : [];
    const { armCountdown } = o;
    this.arming =
      o.countdownMs && armCountdown
        ? new CountdownArming({ countdownMs: o.countdownMs, arm: armCountdown, monotonic: this.elapsed })
        : null;
    const arming = this.arming;
    // The profile by the client's id (a bare test double without one is a perpetuals exchange).
    const profile = findProfile(String((o.exchange as { id?: unknown }).id));
    this.accountWideSwitch = profile?.deadMansSwitchScope === 'account';
    this.spot =
      profile?.market === 'spot'
        ? new SpotHoldings(
            o.symbols.symbols.map((symbol) => {
              // ccxt's unified spot symbol is BASE/QUOTE.
              const [base = '', quote = ''] = o.symbols.unified(symbol).split('/');
              return { symbol, base, quote };
            }),
          )
        : null;
    // An exchange without exchange-side stops (its profile's) rests none, whatever EXCHANGE_STOPS says.
    this.stops =
      o.exchangeStops && profile?.exchangeStops !== null
        ? new ProtectiveStops({
            exchange: o.exchange,
            errors: o.errors,
            symbols: o.symbols,
            now: o.now,
            // An account-wide switch leaves our stops resting: never disarmed for one.
            ...(arming && !this.accountWideSwitch ? { disarm: (symbol: string) => arming.ensure(symbol, true) } : {}),
          })
        : null;
  }

  /** The exchange's protective stops brought to `stops` (one per open position); nothing when off. */
  async protect(stops: readonly ExchangeStop[]): Promise<void> {
    try {
      await this.stops?.sync(stops);
    } finally {
      // A stop cancelled (its position closed) leaves its symbol unguarded: armed now, not next cycle.
      await this.armCountdowns();
    }
  }

  /** Loads the exchange's markets (lot, tick, minimum notional) once, before the first order. */
  async open(): Promise<void> {
    await this.o.exchange.loadMarkets();
  }

  /**
   * A reduce-only order's requests (its look-up, the order, its trades) go as a close: see asClose.
   * A submission of an id already under way waits for it and is then its duplicate: an id is known
   * only after its look-up, so two at once would both be sent (Binance takes a reused id once the
   * first has filled), and the position doubled (found by the venue contract suite).
   */
  submit(order: OrderRequest, _market?: MarketView): Promise<SubmitResult> {
    return this.submitOnce(order);
  }

  /** One submission of an id at a time (a private name: the port's mutators are called by the executor only). */
  private submitOnce(order: OrderRequest): Promise<SubmitResult> {
    const id = order.clientOrderId;
    const under = this.submitting.get(id);
    if (under) return under.then(settled, settled).then(() => this.submitOnce(order));
    const run = order.reduceOnly ? asClose(() => this.submitNow(order)) : this.submitNow(order);
    this.submitting.set(id, run);
    const done = () => {
      if (this.submitting.get(id) === run) this.submitting.delete(id);
    };
    run.then(done, done);
    return run;
  }

  private async submitNow(order: OrderRequest): Promise<SubmitResult> {
    const seen = this.ours.get(order.clientOrderId);
    if (seen) return { ...(await this.settle(seen, this.patienceMs)), duplicate: true };
    const refusal = this.refusal(order);
    if (refusal) return rejected(order, this.o.now(), refusal);
    const tracked: Tracked = {
      request: order,
      exchangeClientId: exchangeClientId(order.clientOrderId, profileOf(this.o.exchange).clientOrderId),
      unknownSince: null,
      unknownAt: null,
      last: null,
      reported: new Set(),
      reportedQty: 0,
      knownAt: null,
    };
    // Idempotent across restarts too: an order an earlier process placed under this id (a command
    // retried after a crash) is found, not placed again — an exchange may accept a reused id once filled.
    let earlier: Order | null;
    try {
      earlier = await this.lookup(tracked);
    } catch (err) {
      return this.notPlaced(order, err);
    }
    this.ours.set(order.clientOrderId, tracked);
    this.byExchangeId.set(tracked.exchangeClientId, tracked);
    this.forgetOldest();
    if (earlier) return { ...(await this.adoptEarlier(tracked, earlier)), duplicate: true };
    if (this.spot) {
      // After the look-up: an order an earlier process placed under this id is adopted, not re-judged.
      let spot: OrderRequest | string;
      try {
        spot = await this.spotOrder(order);
      } catch (err) {
        spot = this.notPlaced(order, err).order.rejectReason ?? 'NOT_PLACED';
      }
      if (typeof spot === 'string') {
        const result = rejected(order, this.o.now(), spot);
        tracked.last = result.order;
        return result;
      }
      tracked.request = spot;
    }
    const sentAt = this.o.now();
    const sentAtMono = this.elapsed();
    let placed: Order;
    try {
      placed = await this.send(tracked);
    } catch (err) {
      const kind = failureKind(err, this.o.errors);
      // A reduce-only close the exchange says it did not process is not looked up for its recvWindow
      // and more (a kill's next close waited ~15 s behind each one in a 503 storm): the next close is
      // sized from the position then held, and if this one was placed after all, reduce-only keeps the
      // two from passing flat (the second is refused -2022 or finds less to reduce).
      const unprocessedClose = kind === 'unknown' && order.reduceOnly && saysNotProcessed(err);
      if ((kind === 'unknown' && !unprocessedClose) || kind === 'duplicate') {
        tracked.unknownSince = sentAt;
        tracked.unknownAt = sentAtMono;
        return { ...(await this.settle(tracked, this.patienceMs)), duplicate: kind === 'duplicate' };
      }
      const result = this.notPlaced(order, err);
      tracked.last = result.order;
      return result;
    }
    // Placed: from here on nothing is sent again for it, whatever fails while reading its fills.
    // An exchange that answers with the ids only (its profile) is read by client id, as a lost answer is.
    if (profileOf(this.o.exchange).createAnswersIdsOnly) {
      // Placed is placed: open with nothing filled until a look-up shows more, so an order whose
      // look-ups fail now is polled on the next cycles rather than dropped from them.
      tracked.last = {
        ...toVenueOrder(placed, order.symbol, this.size(order.symbol), order),
        status: 'open',
        filledQty: 0,
        avgFillPrice: null,
      };
      return { ...(await this.settle(tracked, this.patienceMs)), duplicate: false };
    }
    tracked.last = toVenueOrder(placed, order.symbol, this.size(order.symbol), order);
    tracked.knownAt = sentAtMono;
    return { ...(await this.withFills(tracked, placed)), duplicate: false };
  }

  /**
   * A spot order as it can go (spot has no shorts and no reduce-only flag): a buy as it is; a sell
   * of at most the base asset free (what open sells do not lock), or refused — a reduce-only sell
   * is capped at it (the reduce stops at flat, as reduce-only does on a perpetual) and refused when
   * nothing is held; any other sell beyond it would be a short. Reads the balance once.
   */
  /**
   * The base one contract of a symbol's market is worth: every amount read from ccxt or sent to it
   * passes through it. A market we do not trade (a foreign order's, shown as the exchange names it)
   * is taken at face value.
   */
  private size(symbol: string): number {
    return this.o.symbols.symbols.includes(symbol) ? this.o.symbols.contractSize(symbol) : 1;
  }

  private async spotOrder(order: OrderRequest): Promise<OrderRequest | string> {
    const spot = this.spot!;
    if (order.side === 'BUY') {
      return order.reduceOnly ? 'REDUCE_ONLY_REJECTED: spot holds no short to reduce' : order;
    }
    const balance = await this.o.exchange.fetchBalance();
    const step = this.o.exchange.markets?.[this.o.symbols.unified(order.symbol)]?.precision?.amount;
    const free = spot.free(balance, order.symbol);
    // What can be sold on the lot grid (the exchange refuses a quantity off its step).
    const sellable =
      typeof step === 'number' && step > 0 ? roundToStep(Math.floor(free / step + 1e-9) * step, step) : free;
    if (order.reduceOnly) {
      if (sellable <= 0) return `REDUCE_ONLY_REJECTED: nothing of ${order.symbol} held to reduce`;
      return order.qty > sellable ? { ...order, qty: sellable } : order;
    }
    if (order.qty > sellable + 1e-12)
      return `INSUFFICIENT_HOLDINGS: spot cannot go short: SELL ${order.qty} ${order.symbol} exceeds the ${sellable} free to sell`;
    return order;
  }

  /** Why an order is refused before anything is sent, or null. */
  private refusal(order: OrderRequest): string | null {
    if (order.timeInForce === 'GTT') return 'GTT_NOT_SUPPORTED: the live venue sends GTC';
    const held = this.o.gate.hold();
    if (held) return `RATE_LIMITED: ${held.reason}`;
    // Drift: the account is not what the system believes, so nothing may add to it until it is.
    if (this.drift.length > 0 && !order.reduceOnly)
      return `POSITION_DRIFT: ${this.drift.map((d) => `${d.symbol} holds ${d.actual}, the system's fills explain ${d.expected}`).join('; ')}`;
    return null;
  }

  /**
   * A request refused unprocessed or an order the exchange refused: nothing was placed. A 429/418
   * is not waited out here (the order manager's gate judged this order before the wait, and a kill
   * must not queue behind it): the request gate holds back every request until the exchange's wait
   * is over, every order meanwhile is refused RATE_LIMITED, and the next cycle decides afresh. Keys
   * refused: thrown (nothing will work).
   */
  private notPlaced(order: OrderRequest, err: unknown): SubmitResult {
    const kind = failureKind(err, this.o.errors);
    if (kind === 'auth') throw err;
    if (kind === 'rate_limited') {
      // Held back by the gate (the lookup before sending): the gate's reason, as for any order after it.
      const held = err instanceof RequestWithheldError ? this.o.gate.hold() : null;
      return rejected(order, this.o.now(), `RATE_LIMITED: ${held ? held.reason : rejectReason(err)}`);
    }
    return rejected(order, this.o.now(), rejectReason(err));
  }

  /** An order an earlier process placed under this id: its state now; its trades so far count as reported. */
  private async adoptEarlier(tracked: Tracked, order: Order): Promise<Omit<SubmitResult, 'duplicate'>> {
    tracked.last = toVenueOrder(order, tracked.request.symbol, this.size(tracked.request.symbol), tracked.request);
    tracked.reportedQty = tracked.last.filledQty;
    const trades = await this.tradesOf(tracked, order).catch(() => []);
    for (const trade of trades) tracked.reported.add(tradeKey(trade));
    return { order: tracked.last, fills: [] };
  }

  /**
   * Keeps memory bounded on a long run: past MAX_TRACKED, the oldest finished orders are forgotten
   * (open or unknown ones never are). A client id is unique per cycle and session, so an order old
   * enough to be forgotten is never submitted again.
   */
  private forgetOldest(): void {
    for (const [id, tracked] of this.ours) {
      if (this.ours.size <= MAX_TRACKED) return;
      if (tracked.unknownSince !== null || tracked.last === null || tracked.last.status === 'open') continue;
      this.ours.delete(id);
      this.byExchangeId.delete(tracked.exchangeClientId);
    }
  }

  private send(tracked: Tracked): Promise<Order> {
    const { request } = tracked;
    const params: Record<string, unknown> = { clientOrderId: tracked.exchangeClientId };
    const profile = profileOf(this.o.exchange);
    if (request.reduceOnly) Object.assign(params, profile.reduceOnlyParams);
    if (request.type === 'limit')
      Object.assign(params, request.postOnly ? profile.limitParams.postOnly : profile.limitParams.gtc);
    return this.o.exchange.createOrder(
      this.o.symbols.unified(request.symbol),
      request.type,
      request.side === 'BUY' ? 'buy' : 'sell',
      // In contracts: ccxt sends a derivative's amount as it is (OKX sz); the system's is in the base.
      toContracts(request.qty, this.size(request.symbol)),
      request.type === 'limit' ? (request.limitPrice ?? undefined) : undefined,
      params,
    );
  }

  /**
   * The order as the exchange has it now, with the fills not reported yet. An order whose outcome is
   * unknown is looked up until the exchange shows it, or says it does not exist once its recvWindow
   * has passed (it can no longer be accepted): then it was never placed. Lookups stop after
   * `patienceMs` (a cycle's poll looks once): the order stays unknown, shown as open with nothing
   * filled, and is looked up again on the next poll — never sent again.
   */
  private async settle(tracked: Tracked, patienceMs: number): Promise<Omit<SubmitResult, 'duplicate'>> {
    const started = this.elapsed();
    let notFound = 0;
    for (;;) {
      const asked = this.elapsed();
      const found = await this.lookup(tracked).catch((err: unknown) => {
        if (failureKind(err, this.o.errors) === 'auth') throw err;
        return undefined; // the lookup itself failed: still unknown
      });
      if (found) {
        tracked.unknownSince = tracked.unknownAt = null;
        tracked.knownAt = asked;
        tracked.last = toVenueOrder(found, tracked.request.symbol, this.size(tracked.request.symbol), tracked.request);
        return this.withFills(tracked, found);
      }
      const since = tracked.unknownSince;
      const unknownFor = tracked.unknownAt === null ? null : this.elapsed() - tracked.unknownAt;
      if (found === null) notFound += 1;
      // Not there twice, and past the request's recvWindow with a margin for ccxt's throttle queue,
      // clock skew and the matching engine's lag: it can no longer be accepted.
      if (
        found === null &&
        notFound >= 2 &&
        since !== null &&
        unknownFor !== null &&
        unknownFor > this.recvWindowMs + NOT_PLACED_MARGIN_MS
      ) {
        const result = rejected(tracked.request, since, 'NOT_PLACED: the exchange has no such order');
        tracked.unknownSince = tracked.unknownAt = null;
        tracked.last = result.order;
        return result;
      }
      // An order the exchange showed before and now says it does not have (a lookup answering -2013
      // wrongly) keeps its last known state until the next look.
      if (found === null && since === null && tracked.last) return { order: tracked.last, fills: [] };
      if (this.elapsed() - started >= patienceMs) {
        const now = this.o.now();
        return { order: tracked.last ?? stillUnknown(tracked.request, since ?? now, now), fills: [] };
      }
      await this.o.sleep(this.lookupIntervalMs);
    }
  }

  /** The exchange's order with our client id, or null when it says there is none. */
  private async lookup(tracked: Tracked): Promise<Order | null> {
    try {
      const { lookupParams } = profileOf(this.o.exchange);
      return await this.o.exchange.fetchOrder(
        '',
        this.o.symbols.unified(tracked.request.symbol),
        lookupParams(tracked.exchangeClientId),
      );
    } catch (err) {
      if (err instanceof this.o.errors.OrderNotFound) return null;
      throw err;
    }
  }

  /**
   * The order with the trades of it this venue has not reported yet. When the trades cannot be read
   * now, the order comes back without them and stays polled (reportedQty below filledQty) until they are.
   */
  private async withFills(tracked: Tracked, order: Order): Promise<Omit<SubmitResult, 'duplicate'>> {
    const venueOrder = toVenueOrder(order, tracked.request.symbol, this.size(tracked.request.symbol), tracked.request);
    if (venueOrder.filledQty <= tracked.reportedQty || !order.id) return { order: venueOrder, fills: [] };
    let trades: Trade[];
    try {
      trades = await this.tradesOf(tracked, order);
    } catch {
      return { order: venueOrder, fills: [] };
    }
    const fills: Fill[] = [];
    for (const trade of trades) {
      const key = tradeKey(trade);
      if (trade.order !== order.id || tracked.reported.has(key)) continue;
      tracked.reported.add(key);
      const fill = toFill(
        trade,
        tracked.request.clientOrderId,
        tracked.request.symbol,
        this.size(tracked.request.symbol),
      );
      tracked.reportedQty += fill.qty;
      fills.push(fill);
    }
    this.explain(fills);
    return { order: venueOrder, fills };
  }

  private tradesOf(tracked: Tracked, order: Order): Promise<Trade[]> {
    return this.o.exchange.fetchMyTrades(
      this.o.symbols.unified(tracked.request.symbol),
      undefined,
      undefined,
      profileOf(this.o.exchange).tradesOfOrderParams(String(order.id)),
    );
  }

  /** A cancel's requests (its read of the open orders, the look-ups after it) go as a close: see asClose. */
  cancelAll(symbols?: readonly string[]): Promise<VenueOrder[]> {
    return asClose(() => this.cancelAllNow(symbols));
  }

  private async cancelAllNow(symbols?: readonly string[]): Promise<VenueOrder[]> {
    // A symbol this venue does not trade has nothing of ours to cancel (and no market to name).
    const targets = (symbols ?? this.o.symbols.symbols).filter((s) => this.o.symbols.symbols.includes(s));
    // A kill waits on this: every symbol at once, and every symbol tried even when one fails.
    const results = await Promise.allSettled(
      targets.map(async (symbol) => {
        const unified = this.o.symbols.unified(symbol);
        const open = await this.o.exchange.fetchOpenOrders(unified);
        // Always sent, even with nothing seen open: an order whose outcome is unknown may land just after the read.
        if (profileOf(this.o.exchange).cancelAllBySymbol)
          await this.o.exchange.cancelAllOrders(unified).catch((err: unknown) => {
            // Binance spot answers a cancel-all with nothing open -2011 "Unknown order sent.": nothing to cancel.
            if (!(err instanceof this.o.errors.OrderNotFound)) throw err;
          });
        // Without a per-symbol cancel-all (its profile's), the orders read open, by id: one landing
        // after the read is found open by the next reconciliation, which cancels what is not ours to keep.
        else if (open.length > 0)
          await this.o.exchange.cancelOrders(
            open.map((o) => String(o.id)),
            unified,
          );
        return this.afterCancel(open, symbol);
      }),
    );
    const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    if (failed.length > 0)
      throw new Error(`cancel-all failed for ${failed.length} of ${targets.length} symbol(s): ${oneLine(failed[0])}`);
    return results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
  }

  /**
   * What the cancel did to the orders seen open before it. An order of ours may have filled between
   * that read and the cancel (Binance's cancel-all answers no order list): each is looked up once, a
   * fill is kept for takeFills() and explains the position, and only what was really cancelled is
   * returned. A look-up that fails leaves the order as the read showed it, still polled.
   */
  private async afterCancel(open: readonly Order[], symbol: string): Promise<VenueOrder[]> {
    const cancelled: VenueOrder[] = [];
    for (const o of open) {
      const tracked = o.clientOrderId ? this.byExchangeId.get(o.clientOrderId) : undefined;
      const now = tracked ? await this.settle(tracked, 0).catch(() => null) : null;
      if (!now) {
        cancelled.push({ ...this.asOurs(o, symbol), status: 'cancelled' });
        continue;
      }
      this.cancelFills.push(...now.fills);
      if (now.order.status === 'cancelled') cancelled.push(now.order);
    }
    return cancelled;
  }

  /** Fills of ours found outside a market update (by a cancel), each reported once. */
  takeFills(): Fill[] {
    return this.cancelFills.splice(0);
  }

  /** Each cycle: re-arms the dead-man's switch, reports our resting orders' fills, reconciles with the exchange. */
  async onMarket(_market: MarketView): Promise<MarketUpdate> {
    this.switchHeld();
    await this.armCountdowns();
    const update = await this.pollOurs();
    update.fills.push(...(await this.stopFills()));
    // A stop that triggered or expired rests no more: its symbol is armed at once (else nothing is sent).
    await this.armCountdowns();
    let found = await this.compare();
    if (found.drift.length > 0) {
      // A resting order of ours may have filled between the two reads: look once more before calling it drift.
      // Every one polled, stream or not: a push the stream missed must not be called drift.
      const late = await this.pollOurs({ ignoreStream: true });
      update.fills.push(...late.fills);
      update.cancelled.push(...late.cancelled);
      const again = await this.compare();
      found = { ...again, foreignCancelled: [...found.foreignCancelled, ...again.foreignCancelled] };
    }
    this.reported(found);
    return update;
  }

  /**
   * Resting orders of ours: their new trades, and the ones the exchange ended itself. What the
   * user-data stream pushed comes first; an order it covers is not polled (see `streamCovers`).
   */
  private async pollOurs(options: { ignoreStream?: boolean } = {}): Promise<MarketUpdate> {
    const { fills, cancelled } = this.fromStream();
    for (const tracked of this.ours.values()) {
      const last = tracked.last;
      const wasOpen =
        last?.status === 'open' ||
        tracked.unknownSince !== null ||
        (last !== null && last.filledQty > tracked.reportedQty + 1e-12);
      if (!wasOpen || (!options.ignoreStream && this.streamCovers(tracked))) continue;
      const now = await this.settle(tracked, 0).catch(() => null);
      if (!now) continue;
      fills.push(...now.fills);
      if (now.order.status === 'cancelled') cancelled.push(now.order);
    }
    return { fills, liquidations: [], cancelled };
  }

  /**
   * Whether the user-data stream has told everything about this order since it was last known: the
   * stream is up, has been since before the request that last showed the order was sent (no gap),
   * the order's outcome is known, and every fill it shows has been read. Else it is polled.
   */
  private streamCovers(tracked: Tracked): boolean {
    // Only a stream whose trades the profile can match to our orders vouches for anything.
    if (profileOf(this.o.exchange).userStream === null) return false;
    const up = this.o.userStream?.upSince() ?? null;
    if (up === null || tracked.knownAt === null || tracked.knownAt < up) return false;
    // ccxt pro drops a push that arrives while nothing awaits it (two in one read), until the next
    // one: however healthy the stream, an order is looked at by REST at least this often.
    if (this.elapsed() - tracked.knownAt > STREAM_TRUST_MS) return false;
    if (tracked.unknownSince !== null) return false;
    return tracked.last !== null && tracked.last.filledQty <= tracked.reportedQty + 1e-12;
  }

  /**
   * The orders and trades the user-data stream pushed, applied to our orders: each trade is a fill
   * once (by its id, which a poll of the same order also keys on), an order the exchange ended is
   * reported cancelled once. Orders and trades not ours are left to reconciliation.
   */
  private fromStream(): { fills: Fill[]; cancelled: VenueOrder[] } {
    const fills: Fill[] = [];
    const cancelled: VenueOrder[] = [];
    if (!this.o.userStream) return { fills, cancelled };
    const { orders, trades } = this.o.userStream.take();
    const clientIdOf = profileOf(this.o.exchange).userStream?.tradeClientOrderId ?? (() => undefined);
    for (const trade of trades) {
      const tracked = this.byExchangeId.get(clientIdOf(trade.info) ?? '');
      const key = tradeKey(trade);
      if (!tracked || tracked.reported.has(key)) continue;
      tracked.reported.add(key);
      const fill = toFill(
        trade,
        tracked.request.clientOrderId,
        tracked.request.symbol,
        this.size(tracked.request.symbol),
      );
      tracked.reportedQty += fill.qty;
      fills.push(fill);
    }
    for (const order of orders) {
      const tracked = order.clientOrderId ? this.byExchangeId.get(order.clientOrderId) : undefined;
      // An order whose outcome is unknown is settled by its look-up (the stream may have missed it).
      if (!tracked || tracked.unknownSince !== null) continue;
      const next = toVenueOrder(order, tracked.request.symbol, this.size(tracked.request.symbol), tracked.request);
      // A push older than what is known (delayed past our own cancel's answer, or ccxt pro handing
      // back an earlier state) changes nothing: an ended order never rests again, a fill count
      // never goes back. Else the order would be polled again and reported cancelled a second time.
      const last = tracked.last;
      if (last && (last.status !== 'open' || next.filledQty < last.filledQty - 1e-12)) continue;
      if (next.status === 'cancelled') cancelled.push(next);
      tracked.last = next;
    }
    this.explain(fills);
    return { fills, cancelled };
  }

  /** The trades of our exchange stops that triggered, as fills of their client ids (counted as ours). */
  private async stopFills(): Promise<Fill[]> {
    if (!this.stops) return [];
    const fills = (await this.stops.triggered()).flatMap((s) =>
      s.trades.map((trade) => toFill(trade, s.clientOrderId, s.symbol, this.size(s.symbol))),
    );
    this.explain(fills);
    return fills;
  }

  /**
   * Throws while a held switch's connection has been down its grace: the exchange may cancel every
   * order of the account at any moment after its window, and a process that goes on opening exposure
   * meanwhile has no switch behind it. Within the grace a reconnect may still come (./disconnect-guard.ts).
   */
  private switchHeld(): void {
    const held = this.o.disconnectSwitch;
    const down = held?.down() ?? null;
    if (!held || down === null || down.forMs < held.graceMs) return;
    throw new Error(
      `the exchange's dead-man's switch connection has been down ${Math.round(down.forMs)} ms (grace ${held.graceMs} ms): ${down.reason}`,
    );
  }

  /**
   * Re-arms the exchange's dead-man's switch for every traded symbol that needs it (./countdown-arming.ts:
   * when less than half of it remains, or what it should be changed), all at once: a kill may be waiting.
   */
  async armCountdowns(): Promise<void> {
    const arming = this.arming;
    if (!arming) return;
    // A symbol where our stop rests is disarmed instead: the countdown may cancel the stop with the
    // rest, and the stop (close-position) also covers what a resting order left behind may add.
    await Promise.all(
      this.o.symbols.symbols.map((symbol) => arming.ensure(symbol, this.stops?.restingOn(symbol) ?? false)),
    );
  }

  /**
   * Compares the exchange with what the system believes. Policy (docs/operate/live-trading.md):
   *  - an open order this process did not place (by hand on the exchange's page, or left by an
   *    earlier process: nothing is assumed from memory after a restart) is cancelled — no order may
   *    rest that the risk engine did not approve;
   *  - the first reconciliation adopts the exchange's positions as they are (a position cannot be
   *    cancelled; the risk engine judges them from the first cycle on);
   *  - after that, a position the system's own fills do not explain (changed by hand, liquidated) is
   *    drift: reported, for the trading process to halt new exposure and alert.
   */
  async reconcile(): Promise<Reconciliation> {
    const found = this.reported(await this.compare());
    // Our stops from an earlier process are ours: found before the countdowns are armed over them.
    await this.stops?.adopt();
    return found;
  }

  private async compare(): Promise<Reconciliation> {
    const unified = this.o.symbols.symbols.map((s) => this.o.symbols.unified(s));
    const [open, actual] = await Promise.all([
      Promise.all(unified.map((u) => this.o.exchange.fetchOpenOrders(u))),
      this.heldNow(unified),
    ]);
    // Our protective stops are ours without any memory (their prefix), wherever the exchange lists them.
    const foreign = open
      .flat()
      .filter(
        (o) => !(o.clientOrderId && (this.byExchangeId.has(o.clientOrderId) || isProtectiveStopId(o.clientOrderId))),
      );
    const foreignCancelled = await Promise.all(
      foreign.map(async (o) => {
        const symbol = this.o.symbols.ours(o.symbol ?? '') ?? o.symbol ?? '';
        await this.o.exchange.cancelOrder(o.id ?? '', o.symbol).catch((err: unknown) => {
          // Gone already (filled or cancelled meanwhile) is what the policy wanted.
          if (!(err instanceof this.o.errors.OrderNotFound)) throw err;
        });
        return { ...toVenueOrder(o, symbol, this.size(symbol)), status: 'cancelled' as const };
      }),
    );
    if (this.expected === null) {
      this.expected = actual;
      return { foreignCancelled, drift: [], adopted: true };
    }
    const tolerance = this.o.positionTolerance ?? 1e-9;
    const drift: Reconciliation['drift'] = [];
    const unread = this.unreadFills();
    for (const symbol of this.o.symbols.symbols) {
      // The exchange's trade history can lag its orders and positions by seconds: a position that a
      // fill of ours not read yet explains is no drift. Such a symbol is judged again once it is read,
      // and a drift it already had stands meanwhile.
      if (unread.has(symbol)) {
        drift.push(...this.drift.filter((d) => d.symbol === symbol));
        continue;
      }
      const expected = this.expected.get(symbol) ?? 0;
      const held = actual.get(symbol) ?? 0;
      if (Math.abs(held - expected) > tolerance) drift.push({ symbol, expected, actual: held });
    }
    return { foreignCancelled, drift, adopted: false };
  }

  /** What each traded symbol holds now: its position, or on spot the base asset's balance. */
  private async heldNow(unified: string[]): Promise<Map<string, number>> {
    const actual = new Map<string, number>();
    if (this.spot) {
      const balance = await this.o.exchange.fetchBalance();
      for (const symbol of this.o.symbols.symbols) {
        const qty = this.spot.held(balance, symbol);
        if (qty > 0) actual.set(symbol, qty);
      }
      return actual;
    }
    for (const p of await this.positions(unified)) {
      const symbol = p.symbol ? this.o.symbols.ours(p.symbol) : null;
      const position = symbol === null ? null : toPosition(p, symbol, this.size(symbol));
      if (position) actual.set(position.symbol, position.qty);
    }
    return actual;
  }

  private reported(found: Reconciliation): Reconciliation {
    const ended = this.drift.length > 0 && found.drift.length === 0;
    this.drift = found.drift;
    if (found.foreignCancelled.length > 0 || found.drift.length > 0 || ended || found.adopted) this.o.report?.(found);
    return found;
  }

  positionDrift(): Reconciliation['drift'] {
    return this.drift;
  }

  /** The account's request weight and what its budget holds back (./request-gate.ts), for /health and metrics. */
  requestWeight(): RequestWeight {
    return this.o.gate.weight();
  }

  /**
   * Reads the fee and funding history (./income-tally.ts), not awaited: a page weighs 30 on Binance,
   * so ccxt's throttle holds the next request about 1.5 s. Started when the cycle's orders are done,
   * it delays nothing the cycle sends; the account reports the sums of the last read that ended.
   */
  idle(): void {
    void this.o.income?.refresh();
  }

  /** Ends the held switch, the user-data stream and the exchange client (its sockets and throttle). */
  async close(): Promise<void> {
    // Let go first: closing the client then ends the connection, and the exchange's window starts.
    this.o.disconnectSwitch?.stop();
    await this.o.userStream?.stop();
    await this.o.exchange.close();
  }

  /** The symbols with an order of ours that filled more than the trades of it this venue has read. */
  private unreadFills(): Set<string> {
    const symbols = new Set<string>();
    for (const tracked of this.ours.values())
      if (tracked.last && tracked.last.filledQty > tracked.reportedQty + 1e-12) symbols.add(tracked.request.symbol);
    return symbols;
  }

  /** Counts fills of ours into the positions they explain (once a reconciliation set the start). */
  private explain(fills: readonly Fill[]): void {
    for (const f of fills) this.spot?.record(f);
    if (this.expected === null) return;
    for (const f of fills)
      this.expected.set(f.symbol, (this.expected.get(f.symbol) ?? 0) + (f.side === 'BUY' ? f.qty : -f.qty));
  }

  account(_market?: MarketView, options?: { forClose?: boolean }): Promise<AccountSnapshot> {
    return options?.forClose ? asClose(() => this.accountNow()) : this.accountNow();
  }

  private async accountNow(): Promise<AccountSnapshot> {
    const { value, openOrders } = await this.consistentRead();
    const { held, nav } = value;
    // No USDT value is not a zero NAV (a 100 % drawdown): it is an answer this venue cannot read.
    if (nav === undefined || !Number.isFinite(nav))
      throw new Error('the exchange balance has no USDT total: cannot value the account');
    const unrealizedPnl = held.reduce((sum, p) => sum + p.unrealizedPnl, 0);
    const now = this.o.now();
    const windowNow = this.o.windowNow?.() ?? now;
    const before = JSON.stringify(this.peaks);
    this.peaks = observePeak(this.peaks, windowNow, nav, this.windowMs);
    if (this.o.peaks && JSON.stringify(this.peaks) !== before) await this.o.peaks.save(this.peaks);
    return {
      nav,
      peakNav: peakOf(this.peaks, windowNow, nav, this.windowMs),
      cash: value.cash ?? nav - unrealizedPnl,
      realizedPnl: held.reduce((sum, p) => sum + p.realizedPnl, 0),
      unrealizedPnl,
      ...(this.o.income?.totals() ?? { fundingPnl: 0, feesPaid: 0 }),
      positions: held,
      openOrders,
      ts: now,
    };
  }

  /**
   * The balance, positions and open orders as of one moment. Read side by side, a fill landing between
   * the reads is counted twice (held, and still resting) or not at all, and the allocator then trades
   * on it (a wrong-way order, bought back the next cycle). So the open orders are read before and
   * after the balance and positions: when both reads agree, no order of ours filled in between and the
   * three agree; else read again. With nothing open before, nothing of ours can fill in between.
   */
  private async consistentRead(): Promise<{ value: AccountValue; openOrders: VenueOrder[] }> {
    let before = await this.openOrders();
    for (let attempt = 1; ; attempt++) {
      const value = await this.valueNow();
      if (before.length === 0) return { value, openOrders: before };
      const after = await this.openOrders();
      if (sameOrders(before, after)) return { value, openOrders: after };
      // Orders filling on every read: no consistent view to trade on this time; the cycle fails closed.
      if (attempt >= CONSISTENT_READ_ATTEMPTS)
        throw new Error(`the account changed during each of ${attempt} reads (orders filling): not read`);
      // The orders read last open the next try: one round trip fewer on a slow exchange (a kill's
      // cancel landing between the reads is the common case, and the next try then finds none open).
      before = after;
    }
  }

  /**
   * The positions held and the NAV, read side by side, each read retried on its own through a
   * transient 5xx (read-retry.ts): the account needs all of them. Perpetuals: the positions and the
   * exchange's own reading of the value (its profile's `navOf`); spot: the balance and the marks.
   */
  private async valueNow(): Promise<AccountValue> {
    const unified = this.o.symbols.symbols.map((s) => this.o.symbols.unified(s));
    const balanceRead = this.read(() => this.o.exchange.fetchBalance());
    if (this.spot) {
      const [balance, marks] = await Promise.all([balanceRead, this.read(() => this.marks(unified))]);
      const { positions, nav, cash } = this.spot.value(balance, marks);
      return { held: positions, nav, cash };
    }
    const [balance, positions] = await Promise.all([balanceRead, this.read(() => this.positions(unified))]);
    const held: Position[] = [];
    for (const p of positions) {
      const symbol = p.symbol ? this.o.symbols.ours(p.symbol) : null;
      const position = symbol === null ? null : toPosition(p, symbol, this.size(symbol));
      if (position) held.push(position);
    }
    return { held, nav: profileOf(this.o.exchange).navOf(balance) };
  }

  /** Each traded symbol's mark on spot: the middle of its best bid and ask (the book ticker). */
  private async marks(unified: string[]): Promise<Map<string, number>> {
    const tickers = await this.o.exchange.fetchBidsAsks(unified);
    const marks = new Map<string, number>();
    for (const u of unified) {
      const { bid, ask } = tickers[u] ?? {};
      const symbol = this.o.symbols.ours(u);
      if (symbol !== null && typeof bid === 'number' && typeof ask === 'number' && bid > 0 && ask > 0)
        marks.set(symbol, (bid + ask) / 2);
    }
    return marks;
  }

  /** The positions in these (unified) symbols, by a list when ccxt takes one (the profile's), else all of them. */
  private async positions(unified: string[]): Promise<CcxtPosition[]> {
    if (profileOf(this.o.exchange).positionsBySymbolList) return this.o.exchange.fetchPositions(unified);
    const wanted = new Set(unified);
    return (await this.o.exchange.fetchPositions()).filter((p) => p.symbol !== undefined && wanted.has(p.symbol));
  }

  async openOrders(): Promise<VenueOrder[]> {
    const lists = await Promise.all(
      this.o.symbols.symbols.map(async (symbol) =>
        (await this.read(() => this.o.exchange.fetchOpenOrders(this.o.symbols.unified(symbol)))).map((o) =>
          this.asOurs(o, symbol),
        ),
      ),
    );
    return lists.flat();
  }

  private read<T>(call: () => Promise<T>): Promise<T> {
    return readRetried(call, this.o.errors, (ms) => this.o.sleep(ms));
  }

  async resetDrawdownPeak(): Promise<{ previousPeakNav: number; peakNav: number; nav: number }> {
    const { nav, peakNav: previousPeakNav } = await this.account();
    this.peaks = resetPeaks(this.o.windowNow?.() ?? this.o.now(), nav, this.windowMs);
    await this.o.peaks?.save(this.peaks);
    return { previousPeakNav, peakNav: nav, nav };
  }

  /** An exchange order under our client id when it is ours, else as the exchange shows it (foreign). */
  private asOurs(order: Order, symbol: string): VenueOrder {
    const tracked = order.clientOrderId ? this.byExchangeId.get(order.clientOrderId) : undefined;
    return toVenueOrder(order, symbol, this.size(symbol), tracked?.request);
  }
}

/** The account's holdings and value as read at one moment (`cash` absent: NAV less the unrealized). */
interface AccountValue {
  held: Position[];
  nav: number | undefined;
  cash?: number;
}

/** Reads of the account before giving up on a consistent one (each straddled a fill of ours). */
const CONSISTENT_READ_ATTEMPTS = 3;

/** Whether two reads of the open orders show the same orders at the same fill. */
function sameOrders(a: readonly VenueOrder[], b: readonly VenueOrder[]): boolean {
  const key = (orders: readonly VenueOrder[]) =>
    orders
      .map((o) => `${o.symbol}|${o.clientOrderId}|${o.status}|${o.filledQty}`)
      .sort()
      .join(',');
  return a.length === b.length && key(a) === key(b);
}

/** An order sent whose outcome is not known yet: open with nothing filled, until a lookup tells. */
function stillUnknown(order: OrderRequest, sentAt: number, now: number): VenueOrder {
  return { ...order, status: 'open', filledQty: 0, avgFillPrice: null, createdAt: sentAt, updatedAt: now };
}

function oneLine(err: unknown): string {
  return String(err instanceof Error ? err.message : err)
    .split('\n')[0]!
    .slice(0, 200);
}

/** A trade's identity for reporting it once (its id; a composite when the exchange gives none). */
function tradeKey(trade: Trade): string {
  return trade.id ?? `${trade.timestamp}-${trade.amount}-${trade.price}`;
}

function rejected(order: OrderRequest, at: number, reason: string): SubmitResult {
  return {
    order: {
      ...order,
      status: 'rejected',
      filledQty: 0,
      avgFillPrice: null,
      createdAt: at,
      updatedAt: at,
      rejectReason: reason,
    },
    fills: [],
    duplicate: false,
  };
}

/** Ignores how a submission ended: the one waiting on it only needs it to be over. */
function settled(): void {}

/**
 * The allocator's rule: each selected signal sets a target position (./sizing.ts) and the order is
 * the difference from what the account will hold once its resting orders fill, priced on the side it
 * takes, with a deterministic client order id.
 *
 * * Same direction, larger: an increase, scaled down to fit the risk limits (sizing.fitToLimits).
 * * Same direction, smaller: a reduce-only order for the difference, in the configured style.
 * * A change smaller than the no-trade band is not traded (WITHIN_BAND), a flip included: a target
 *   on the other side that is within the band of the position is not worth crossing the spread for.
 * * A flip whose new target is itself within the band of flat only closes (no dust position opens).
 * * At most `maxOrders` directional signals become orders per cycle, best-ranked first; a signal that
 *   changes nothing spends no budget, and the rest are skipped MAX_ORDERS_REACHED. Exits never count.
 * * Flat — an exit signal (direction 0) from the agent whose signal set the position, or a spot
 *   signal to sell — closes the whole position with a reduce-only market order.
 * * Opposite direction: split in two, a reduce-only market close of the whole position, then an
 *   opening order for the new target judged as if the close had filled.
 *
 * Openings are sized last: every close, reduction and flip's close of the cycle is emitted first, in
 * rank order, then the openings and increases in rank order, each scaled on the account those orders
 * leave. The risk engine judges a cycle's closes before its openings (the NAV their fee and spread take
 * counts against every opening), so what is sized here is what it passes.
 *
 * Protective exits (./protection.ts) go first: each is a reduce-only market close of the whole
 * position, marked with its reason; the symbol's signals are then skipped that cycle
 * (PROTECTIVE_EXIT), and an agent in its cooldown after a stop has its directional signals for that
 * symbol skipped (COOLDOWN). Exits never count against `maxOrders`.
 *
 * Every order that only reduces |position| is reduce-only, so the drawdown, leverage and exposure
 * guards always let it through; closes go at market whatever ORDER_STYLE says, because a resting
 * close may never fill while the loss grows. Spot cannot go short: its target is never below zero,
 * so a spot sell is a reduce-only order capped at the holdings.
 */
import { newClientOrderId } from './client-order-id.js';
import { maxOrderQty, outsidePercentPrice } from './exchange-filters.js';
import type { Instrument, MarketSnapshot, MarketView, MarkPrice } from './market.js';
import { floorToLot, valuationPrice } from './market.js';
import type { OrderRequest, Side } from './orders.js';
import type { AccountSnapshot } from './portfolio.js';
import type { ExitReason, ProtectiveExit } from './protection.js';
import { projectAccount } from './risk/projection.js';
import type { PendingOrder } from './risk/projection.js';
import { pendingEntry, takenThisCycle } from './risk/expected-fill.js';
import { DEFAULT_RISK_LIMITS } from './risk/limits.js';
import type { RiskLimits } from './risk/limits.js';
import type { Signal } from './signal.js';
import { DEFAULT_NO_TRADE_BAND, expectedPosition, explicitTargetQty, fitToLimits, targetQty } from './sizing.js';
import type { ScalingLimit } from './sizing.js';
import type { AllocationSkipCode } from './allocation-skips.js';

export type OrderStyle = 'market' | 'passive';
export const ORDER_STYLES: readonly OrderStyle[] = ['market', 'passive'];

export interface AllocationSettings {
  /** Target |position| at confidence 1, as a fraction of NAV, in (0, 1]. */
  riskFraction: number;
  /** market: take liquidity now; passive: a limit order joining the best quote on its own side. */
  orderStyle: OrderStyle;
  sessionId: string;
  /** The limits increases are scaled to fit (the risk engine's); default DEFAULT_RISK_LIMITS. */
  limits?: RiskLimits;
  /** Fraction of the full-confidence target below which a change is not traded; default 0.25. */
  noTradeBand?: number;
  /** The venue's taker rate, which the risk engine counts against the NAV after an order; default 0. */
  feeRate?: number;
  /** SLIPPAGE_BPS, which the risk engine counts in a market order's expected price; default 0. */
  slippageBps?: number;
  /** MARK_PRICE: symbols are valued as the venue marks them, as the risk engine values them; default the mid. */
  markPrice?: MarkPrice;
}

/** How an order was sized, for the decision entry. Quantities are signed base units. */
export interface SizingNote {
  kind: 'open' | 'increase' | 'reduce' | 'close' | 'flip_close' | 'flip_open';
  target: number;
  /** The position once resting and earlier orders fill. */
  expected: number;
  /** |target − expected| (or the position, for a close) before scaling. */
  wanted: number;
  /** The order's quantity. */
  qty: number;
  /** The limit that scaled the order down, or null. */
  scaledBy: ScalingLimit | null;
}

export interface Proposal {
  signal: Signal;
  /** The sized order, or null with the reason it could not be sized. */
  order: OrderRequest | null;
  skipped: { code: AllocationSkipCode; message: string } | null;
  sizing?: SizingNote;
  /** A protective exit: why, and the prices it was judged on. */
  exit?: ExitMark;
}

/** What marks a protective exit's order (decision entry, position_exit line, trades.csv `kind`). */
export interface ExitMark {
  reason: ExitReason;
  entryPrice: number;
  bestPrice: number;
  triggerPrice: number;
}

/** The agent name a protective exit's order is attributed to when the position's owner is unknown. */
export const PROTECTION_AGENT = 'protection';

export interface AllocationContext {
  account: AccountSnapshot;
  market: MarketView;
  instruments: ReadonlyMap<string, Instrument>;
  cycle: number;
  /** Which agent's signal set each held symbol's target; an exit closes only its own. Absent: any. */
  owners?: ReadonlyMap<string, string>;
  /** Directional signals that may become orders (the arbiter's budget); default: no limit. */
  maxOrders?: number;
  /** Protective exits triggered this cycle (./protection.ts): closed first. */
  exits?: readonly ProtectiveExit[];
  /** The last cycle of `agent`'s cooldown on `symbol` when this cycle is inside it, else null. */
  coolingDown?: (agent: string, symbol: string) => number | null;
}

export function allocate(
  selected: readonly Signal[],
  ctx: AllocationContext,
  settings: AllocationSettings,
): Proposal[] {
  const pending: PendingOrder[] = [];
  const proposals: Proposal[] = [];
  let seq = 0;
  let exit: ExitMark | undefined;
  const emit = (signal: Signal, order: Omit<OrderRequest, 'clientOrderId'>, sizing: SizingNote, price: number) => {
    const full: OrderRequest = {
      clientOrderId: newClientOrderId(settings.sessionId, ctx.cycle, order.symbol, seq++),
      ...order,
    };
    // Counted as the risk actor will count it: at its expected fill after this cycle's earlier orders, with its cost.
    const snapshot = ctx.market.get(order.symbol);
    const reference = order.type === 'limit' && order.limitPrice !== null ? order.limitPrice : price;
    const tickSize = ctx.instruments.get(order.symbol)?.tickSize;
    pending.push(
      snapshot
        ? pendingEntry(full, snapshot, reference, pending, {
            ...(settings.feeRate !== undefined ? { feeRate: settings.feeRate } : {}),
            ...(settings.slippageBps !== undefined ? { slippageBps: settings.slippageBps } : {}),
            ...(settings.markPrice !== undefined ? { markPrice: settings.markPrice } : {}),
            ...(tickSize !== undefined ? { tickSize } : {}),
          })
        : { order: full, price },
    );
    proposals.push({ signal, order: full, skipped: null, sizing, ...(exit ? { exit } : {}) });
  };
  const exited = new Set<string>();
  for (const e of ctx.exits ?? []) {
    const snapshot = ctx.market.get(e.symbol);
    const instrument = ctx.instruments.get(e.symbol);
    if (!snapshot || !instrument) continue;
    exit = { reason: e.reason, entryPrice: e.entryPrice, bestPrice: e.bestPrice, triggerPrice: e.triggerPrice };
    const signal: Signal = {
      agent: e.agent ?? PROTECTION_AGENT,
      symbol: e.symbol,
      direction: 0,
      confidence: 1,
      rationale: `${e.reason}: ${e.qty > 0 ? 'low' : 'high'} crossed ${fmt(e.triggerPrice)} (entry ${fmt(e.entryPrice)}, best ${fmt(e.bestPrice)})`,
    };
    const skipped = close(signal, snapshot, instrument, e.qty, e.qty, 0, 'close', emit);
    exit = undefined;
    if (skipped) proposals.push({ signal, order: null, skipped });
    exited.add(e.symbol);
  }
  const budget = ctx.maxOrders ?? Number.POSITIVE_INFINITY;
  let spent = 0;
  // Openings are sized after every close of the cycle (`opening` defers them, in rank order): the risk
  // engine judges a cycle's closes before its openings, so an opening is sized here on the NAV the
  // closes' fee and spread leave, as it will be judged (sized before a later close, one at a limit
  // was refused by the engine's fraction of a basis point).
  const openings: { signal: Signal; size: () => Skip | null }[] = [];
  for (const signal of selected) {
    const directional = Number.isFinite(signal.direction) && Math.sign(signal.direction) !== 0;
    if (exited.has(signal.symbol)) {
      proposals.push({
        signal,
        order: null,
        skipped: { code: 'PROTECTIVE_EXIT', message: `${signal.symbol} is being closed by a protective exit` },
      });
      continue;
    }
    const until = directional ? (ctx.coolingDown?.(signal.agent, signal.symbol) ?? null) : null;
    if (until !== null) {
      proposals.push({
        signal,
        order: null,
        skipped: {
          code: 'COOLDOWN',
          message: `${signal.agent} was stopped out of ${signal.symbol}: no re-entry through cycle ${until}`,
        },
      });
      continue;
    }
    if (directional && spent >= budget) {
      proposals.push({
        signal,
        order: null,
        skipped: { code: 'MAX_ORDERS_REACHED', message: `${budget} signal(s) already became orders this cycle` },
      });
      continue;
    }
    const before = pending.length + openings.length;
    const skipped = allocateOne(signal, ctx, settings, pending, emit, (size) => openings.push({ signal, size }));
    if (skipped) proposals.push({ signal, order: null, skipped });
    if (directional && pending.length + openings.length > before) spent += 1;
  }
  for (const { signal, size } of openings) {
    const skipped = size();
    if (skipped) proposals.push({ signal, order: null, skipped });
  }
  return proposals;
}

type Skip = { code: AllocationSkipCode; message: string };

type Emit = (signal: Signal, order: Omit<OrderRequest, 'clientOrderId'>, sizing: SizingNote, price: number) => void;

function allocateOne(
  signal: Signal,
  ctx: AllocationContext,
  settings: AllocationSettings,
  pending: PendingOrder[],
  emit: Emit,
  opening: (size: () => Skip | null) => void,
): Skip | null {
  const instrument = ctx.instruments.get(signal.symbol);
  const snapshot = ctx.market.get(signal.symbol);
  if (!instrument || !snapshot)
    return { code: 'NO_MARKET', message: `no instrument or market data for ${signal.symbol}` };
  const nav = ctx.account.nav;
  if (!Number.isFinite(nav)) return { code: 'INVALID_INPUT', message: `NAV must be a number, got ${nav}` };
  if (!(Number.isFinite(signal.confidence) && signal.confidence >= 0 && signal.confidence <= 1))
    return { code: 'INVALID_INPUT', message: `confidence must be in [0, 1], got ${signal.confidence}` };
  const direction = Number.isFinite(signal.direction) ? Math.sign(signal.direction) : 0;
  if (direction === 0) {
    const owner = ctx.owners?.get(signal.symbol);
    if (ctx.owners && owner !== signal.agent)
      return {
        code: 'EXIT_NOT_OWNER',
        message: `${signal.agent} exits ${signal.symbol}, but ${owner ?? 'no agent'} set its position`,
      };
    // Most exits are for symbols with nothing held or resting: no projection needed (it is built over
    // every market, so doing it per exit made a cycle O(symbols²)).
    if (!touches(ctx.account, pending, signal.symbol))
      return close(signal, snapshot, instrument, 0, 0, 0, 'close', emit);
  }
  const marks = new Map([...ctx.market.values()].map((m) => [m.symbol, valuationPrice(m, settings.markPrice)]));
  const projection = projectAccount(ctx.account, pending, marks);
  const book = projection.books.get(signal.symbol);
  const held = book?.position ?? 0;
  const expected = expectedPosition(book);

  if (direction === 0) return close(signal, snapshot, instrument, held, expected, 0, 'close', emit);
  const mid = direction > 0 ? snapshot.ask : snapshot.bid;
  // A signal that sized itself (SignalTarget) sets the target directly; the rest is the same.
  let target =
    signal.target === undefined
      ? targetQty(direction, signal.confidence, settings.riskFraction, nav, mid)
      : explicitTargetQty(direction, signal.target, nav, mid);
  // Spot cannot go short: a sell signal means "hold nothing".
  if (instrument.kind === 'spot' && target < 0) target = 0;
  if (target === 0) return close(signal, snapshot, instrument, held, expected, 0, 'close', emit);

  const band = (settings.noTradeBand ?? DEFAULT_NO_TRADE_BAND) * settings.riskFraction * Math.max(nav, 0);
  const flipping = held !== 0 && Math.sign(held) !== Math.sign(target);
  // The whole change is judged against the band, a flip's too: both legs cross the spread and pay fees.
  const change = target - expected;
  const changeSide: Side = change > 0 ? 'BUY' : 'SELL';
  if (Math.abs(change) * (changeSide === 'BUY' ? snapshot.ask : snapshot.bid) <= band)
    return {
      code: 'WITHIN_BAND',
      message: `target ${fmt(target)} is within the no-trade band of the expected position ${fmt(expected)}`,
    };
  let from = expected;
  if (flipping) {
    // Reduce, then flip: the close goes first; the opening order is judged as if it had filled.
    const skippedClose = close(signal, snapshot, instrument, held, expected, target, 'flip_close', emit);
    if (skippedClose) return skippedClose;
    // A close capped at the exchange's maximum leaves part of the old side: the new side opens once
    // the close is whole, never on top of what is still held.
    if (floorToLot(Math.abs(held), instrument.lotSize) > maxOrderQty(instrument, 'market')) return null;
    from = expected - held;
    const openSide: Side = target - from > 0 ? 'BUY' : 'SELL';
    // A new side within the band of flat is not opened: closing was the change worth making.
    if (Math.abs(target - from) * (openSide === 'BUY' ? snapshot.ask : snapshot.bid) <= band) return null;
  }
  const delta = target - from;
  const side: Side = delta > 0 ? 'BUY' : 'SELL';
  const price = side === 'BUY' ? snapshot.ask : snapshot.bid;
  const shrinking = Math.sign(delta) === -Math.sign(held) && Math.abs(target) < Math.abs(held) && from === expected;
  if (shrinking) {
    const style = styled(settings, snapshot, signal.symbol, side, 0, true);
    const wanted = floorToLot(Math.min(Math.abs(delta), Math.abs(held)), instrument.lotSize);
    // Above the exchange's maximum for one order: reduce by that much now, the rest next cycle.
    const qty = Math.min(wanted, maxOrderQty(instrument, style.type));
    if (qty <= 0) return { code: 'ZERO_QTY', message: `the reduction is less than one lot (${instrument.lotSize})` };
    const order = { ...style, qty };
    emit(signal, order, { kind: 'reduce', target, expected, wanted: Math.abs(delta), qty, scaledBy: null }, price);
    return null;
  }
  const kind = from !== expected ? 'flip_open' : held === 0 ? 'open' : 'increase';
  const note = { kind, target, expected, wanted: Math.abs(delta) } as const;
  opening(() => sizeOpening(signal, note, side, { ctx, settings, pending, emit, snapshot, instrument, price, marks }));
  return null;
}

/** An increase, scaled to fit the limits on the account as the cycle's closes and earlier openings leave it. */
function sizeOpening(
  signal: Signal,
  note: Pick<SizingNote, 'kind' | 'target' | 'expected' | 'wanted'>,
  side: Side,
  at: {
    ctx: AllocationContext;
    settings: AllocationSettings;
    pending: PendingOrder[];
    emit: Emit;
    snapshot: MarketSnapshot;
    instrument: Instrument;
    /** The best quote on the side the order takes. */
    price: number;
    marks: ReadonlyMap<string, number>;
  },
): Skip | null {
  const { ctx, settings, pending, snapshot, instrument, price } = at;
  const shape = styled(settings, snapshot, signal.symbol, side, 0, false);
  // Refused here rather than clamped: a price outside the exchange's band means the book has run
  // away from the last trade, and an opening moved to the band's edge would not be the order decided.
  const outside = outsidePercentPrice(instrument, side, shape.limitPrice ?? price, snapshot.last);
  if (outside) return { code: 'OUTSIDE_PERCENT_PRICE', message: outside };
  const fit = fitToLimits(note.wanted, side, {
    projection: projectAccount(ctx.account, pending, at.marks),
    market: snapshot,
    instrument,
    price: shape.limitPrice ?? price,
    limits: settings.limits ?? DEFAULT_RISK_LIMITS,
    type: shape.type,
    ...(settings.feeRate !== undefined ? { feeRate: settings.feeRate } : {}),
    ...(settings.slippageBps !== undefined ? { slippageBps: settings.slippageBps } : {}),
    ...(settings.markPrice !== undefined ? { markPrice: settings.markPrice } : {}),
    taken: takenThisCycle(pending, signal.symbol, side),
  });
  if (!fit.ok) return { code: fit.code, message: fit.message };
  if (fit.qty * price < instrument.minNotional)
    return {
      code: 'BELOW_MIN_NOTIONAL',
      message: `notional ${(fit.qty * price).toFixed(2)} is below the minimum ${instrument.minNotional}`,
    };
  const order = styled(settings, snapshot, signal.symbol, side, fit.qty, false);
  at.emit(signal, order, { ...note, qty: fit.qty, scaledBy: fit.limitedBy }, price);
  return null;
}

/** A reduce-only market order for the whole position; nothing to do when flat. */
function close(
  signal: Signal,
  snapshot: MarketSnapshot,
  instrument: Instrument,
  held: number,
  expected: number,
  target: number,
  kind: 'close' | 'flip_close',
  emit: Emit,
): Skip | null {
  if (held === 0) {
    if (kind === 'flip_close') return null;
    return { code: 'ALREADY_FLAT', message: `${signal.symbol}: no position to close` };
  }
  const side: Side = held > 0 ? 'SELL' : 'BUY';
  // Above the exchange's maximum for one market order: close that much now, the rest next cycle.
  const qty = Math.min(floorToLot(Math.abs(held), instrument.lotSize), maxOrderQty(instrument, 'market'));
  if (qty <= 0) return { code: 'ZERO_QTY', message: `the position ${held} is less than one lot` };
  const price = side === 'BUY' ? snapshot.ask : snapshot.bid;
  const order = { symbol: signal.symbol, side, qty, type: 'market' as const, limitPrice: null, reduceOnly: true };
  emit(signal, order, { kind, target, expected, wanted: Math.abs(held), qty, scaledBy: null }, price);
  return null;
}

function styled(
  settings: AllocationSettings,
  snapshot: MarketSnapshot,
  symbol: string,
  side: Side,
  qty: number,
  reduceOnly: boolean,
): Omit<OrderRequest, 'clientOrderId'> {
  const passive = settings.orderStyle === 'passive';
  return {
    symbol,
    side,
    qty,
    type: passive ? 'limit' : 'market',
    // Passive orders join their own side of the book, so they rest until the market comes to them.
    limitPrice: passive ? (side === 'BUY' ? snapshot.bid : snapshot.ask) : null,
    reduceOnly,
  };
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toPrecision(6);
}

/** True when the account holds, rests or has pending anything in `symbol`. */
function touches(account: AccountSnapshot, pending: readonly PendingOrder[], symbol: string): boolean {
  return (
    account.positions.some((p) => p.symbol === symbol && p.qty !== 0) ||
    account.openOrders.some((o) => o.symbol === symbol && o.status === 'open') ||
    pending.some((p) => p.order.symbol === symbol)
  );
}

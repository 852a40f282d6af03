/**
 * The allocator's arithmetic (spec step 3), as target positions rather than slices:
 *
 *   target position = direction × confidence × riskFraction × NAV / price   (base units, signed)
 *
 * and the order is the difference between the target and what the account will hold once its
 * resting orders fill. An increase is then scaled down to fit the risk limits — per-symbol and net
 * exposure, gross leverage, and the liquidity guard's volume and depth shares — measured on the same
 * worst-case projection the risk engine uses (./risk/projection.ts), and with its arithmetic: the
 * ratios after the order divide by the NAV less the cycle's earlier orders' costs and the order's own
 * fee and spread, and the book's share is what this cycle's earlier orders left of it
 * (./risk/expected-fill.ts), so risk, which remains the judge, sees orders it can approve.
 * Quantities round DOWN to the lot size.
 */
import type { SignalTarget } from './signal.js';
import { maxOrderQty } from './exchange-filters.js';
import type { Instrument, MarketSnapshot, MarkPrice } from './market.js';
import { floorToLot, valuationPrice } from './market.js';
import type { OrderRequest, Side } from './orders.js';
import { sideSign } from './orders.js';
import { drawdown } from './risk/drawdown-guard.js';
import type { RiskLimits } from './risk/limits.js';
import { expectedFill } from './risk/expected-fill.js';
import { visibleDepth } from './risk/liquidity-guard.js';
import { worstAbsPosition, worstPosition } from './risk/projection.js';
import type { Projection, SymbolBook } from './risk/projection.js';

/** Target |position| at confidence 1: 10 % of NAV in one symbol (the exposure guard caps it at 0.5×). */
export const DEFAULT_RISK_FRACTION = 0.1;

/**
 * No-trade band, as a fraction of the full-confidence target (riskFraction × NAV): a change of
 * target smaller than this is not traded, so a confidence that wobbles from cycle to cycle does not
 * churn the position (and pay fees) for nothing. 0.2 with riskFraction 0.1 = 2 % of NAV.
 *
 * Strictly below the least confidence the built-ins enter with (0.25: a fresh cross's floor, funding
 * just past its threshold), and far enough below it that no rounding decides: at 0.25 the band was
 * the same number as the entry, and 98.9 % of fresh entries from flat were skipped by `<=` on the
 * spread between the mid the target was sized at and the side it was compared on.
 */
export const DEFAULT_NO_TRADE_BAND = 0.2;

/** The signed target position in base units, before rounding. */
export function targetQty(
  direction: number,
  confidence: number,
  riskFraction: number,
  nav: number,
  price: number,
): number {
  const sign = Number.isFinite(direction) ? Math.sign(direction) : 0;
  if (sign === 0 || !(nav > 0) || !(price > 0)) return 0;
  return (sign * Math.max(0, Math.min(1, confidence)) * riskFraction * nav) / price;
}

/**
 * The signed target of a signal that sized itself (SignalTarget, already held to the contract):
 * a quantity as is, a notional or a NAV fraction over the price the order takes.
 */
export function explicitTargetQty(direction: number, target: SignalTarget, nav: number, price: number): number {
  const sign = Number.isFinite(direction) ? Math.sign(direction) : 0;
  if (sign === 0 || !(price > 0)) return 0;
  if (target.qty !== undefined) return sign * target.qty;
  if (target.notional !== undefined) return (sign * target.notional) / price;
  if (target.navFraction !== undefined && nav > 0) return (sign * target.navFraction * nav) / price;
  return 0;
}

/** The signed position once every resting and pending order fills (reduce-only capped at flat). */
export function expectedPosition(book: SymbolBook | undefined): number {
  if (!book) return 0;
  const { position, open, reduceOnly } = book;
  const reduce =
    position > 0 ? Math.min(reduceOnly.SELL, position) : position < 0 ? -Math.min(reduceOnly.BUY, -position) : 0;
  return position + open.BUY - open.SELL - reduce;
}

/** Which limit made an increase smaller than asked. */
export type ScalingLimit =
  | 'symbol_exposure'
  | 'total_exposure'
  | 'leverage'
  | 'liquidity_volume'
  | 'liquidity_depth'
  /** The order's fee and spread would take the drawdown past its limit (the risk engine judges it after costs). */
  | 'drawdown'
  /** The exchange's largest quantity for one order of its type (LOT_SIZE / MARKET_LOT_SIZE maxQty). */
  | 'exchange_max_qty';

export type FitResult =
  | {
      ok: true;
      qty: number;
      /** the binding limit, or null when the whole quantity fits */ limitedBy: ScalingLimit | null;
    }
  | { ok: false; code: 'DRAWDOWN_BREACH' | 'NAV_NOT_POSITIVE' | 'NO_HEADROOM'; message: string };

/**
 * The largest quantity ≤ `wanted` (rounded down to the lot) an order that adds risk can have and stay
 * within every limit on the projection. Drawdown beyond its limit or NAV ≤ 0 leaves no room at all.
 */
export function fitToLimits(
  wanted: number,
  side: Side,
  ctx: {
    projection: Projection;
    market: MarketSnapshot;
    instrument: Instrument;
    /** The order's reference price: the best quote on the side it takes, or its limit. */
    price: number;
    limits: RiskLimits;
    /** Market (default) or a limit at `price`. */
    type?: OrderRequest['type'];
    /** The venue's taker rate, as the risk engine is given it; default 0. */
    feeRate?: number;
    /** SLIPPAGE_BPS, as the risk engine is given it; default 0. */
    slippageBps?: number;
    /** MARK_PRICE, as the risk engine is given it; default the mid. */
    markPrice?: MarkPrice;
    /** Quantity this cycle's earlier orders take on `side` of the symbol, and their notional (either side). */
    taken?: { qty: number; notional: number };
  },
): FitResult {
  const { projection, market, instrument, price, limits } = ctx;
  const nav = projection.nav - projection.pendingCost;
  if (!(nav > 0)) return { ok: false, code: 'NAV_NOT_POSITIVE', message: `NAV ${nav} is not positive` };
  const dd = drawdown(nav, projection.peakNav);
  if (dd > limits.maxDrawdown)
    return {
      ok: false,
      code: 'DRAWDOWN_BREACH',
      message: `drawdown ${(dd * 100).toFixed(2)}% exceeds ${(limits.maxDrawdown * 100).toFixed(2)}%: only closing`,
    };
  const s = sideSign(side);
  const mark = valuationPrice(market, ctx.markPrice);
  let othersGross = 0;
  let othersNet = 0;
  let largestOther = 0;
  for (const book of projection.books.values()) {
    if (book.symbol === market.symbol) continue;
    const worst = worstAbsPosition(book) * book.mark;
    othersGross += worst;
    othersNet += worstPosition(book, side) * book.mark;
    largestOther = Math.max(largestOther, worst);
  }
  const own = projection.books.get(market.symbol);
  const w = own ? worstPosition(own, side) : 0;
  const traded = Number.isFinite(market.volume) && market.volume > 0 ? market.volume * market.last : 0;
  const taken = ctx.taken ?? { qty: 0, notional: 0 };
  const depthRoom = limits.maxDepthFraction * visibleDepth(side === 'BUY' ? market.asks : market.bids) - taken.qty;
  const order = { side, type: ctx.type ?? 'market', limitPrice: ctx.type === 'limit' ? price : null };
  const feeRate = Math.max(0, ctx.feeRate ?? 0);
  // The cost per unit of q and the highest price it pays: both only grow with q (the walk gets worse).
  const unitCostAt = (q: number): { unitCost: number; worstPrice: number } => {
    const fill =
      q > 0
        ? expectedFill(order, q, market, price, {
            taken: taken.qty,
            feeRate,
            tickSize: instrument.tickSize,
            slippageBps: ctx.slippageBps ?? 0,
            ...(ctx.markPrice !== undefined ? { markPrice: ctx.markPrice } : {}),
          })
        : null;
    // A SELL's walk falls in price, so its fee per unit is largest at the best quote.
    const worstPrice = Math.max(price, fill?.price ?? price);
    return { unitCost: (fill && q > 0 ? (fill.cost - fill.fee) / q : 0) + feeRate * worstPrice, worstPrice };
  };
  // What the order's costs may take from NAV: the drawdown's room, and another symbol's (one within
  // its limit may not be lifted past it; one already beyond it the order did not cross).
  const costRoom = {
    drawdown: nav - (1 - limits.maxDrawdown) * projection.peakNav,
    symbol: largestOther <= limits.maxSymbolExposure * nav ? nav - largestOther / limits.maxSymbolExposure : Infinity,
  };
  // q·mark ≤ L·(nav − unitCost·q) − (what is already held that way), solved for q.
  const fitAt = (at: { unitCost: number; worstPrice: number }): { qty: number; limitedBy: ScalingLimit | null } => {
    const solve = (limit: number, held: number): number => (limit * nav - held) / (mark + limit * at.unitCost);
    // q·unitCost ≤ room: the NAV the order may spend on its fee and spread.
    const spend = (room: number): number => (at.unitCost > 0 ? room / at.unitCost : Infinity);
    const room: [ScalingLimit, number][] = [
      ['drawdown', spend(costRoom.drawdown)],
      ['symbol_exposure', spend(costRoom.symbol)],
      ['symbol_exposure', solve(limits.maxSymbolExposure, s * w * mark)],
      ['total_exposure', solve(limits.maxTotalExposure, s * (othersNet + w * mark))],
      ['leverage', solve(limits.maxLeverage, othersGross + s * w * mark)],
      ['liquidity_volume', (limits.maxVolumeFraction * traded - taken.notional) / at.worstPrice],
      ['liquidity_depth', depthRoom],
    ];
    let qty = wanted;
    let limitedBy: ScalingLimit | null = null;
    for (const [name, headroom] of room) {
      // A hair under the limit, so the guards' own floating-point sums never land a rounding error above it.
      const fits = headroom * (1 - 1e-9);
      if (fits < qty) {
        qty = fits;
        limitedBy = name;
      }
    }
    return { qty, limitedBy };
  };
  // Solved with the cost per unit at the largest size the book allows, which bounds it at every
  // smaller size; then once more with the cost at that answer, kept only if it still fits at its own cost.
  const first = fitAt(unitCostAt(Math.min(wanted, depthRoom)));
  const second = first.qty > 0 ? fitAt(unitCostAt(first.qty)) : first;
  const fitsAtOwnCost = second.qty > 0 && fitAt(unitCostAt(second.qty)).qty >= second.qty * (1 - 1e-12);
  const { qty: fitted, limitedBy } = fitsAtOwnCost ? second : first;
  const qty = fitted > 0 ? floorToLot(fitted, instrument.lotSize) : 0;
  if (qty <= 0)
    return {
      ok: false,
      code: 'NO_HEADROOM',
      message: `no room under the ${limitedBy ?? 'risk'} limit for ${market.symbol}`,
    };
  // Above the exchange's maximum the order is refused (-4005) every cycle: capped, the rest follows
  // in the next cycles (the target still differs from the position).
  const max = maxOrderQty(instrument, ctx.type ?? 'market');
  if (qty > max) return { ok: true, qty: max, limitedBy: 'exchange_max_qty' };
  return { ok: true, qty, limitedBy };
}

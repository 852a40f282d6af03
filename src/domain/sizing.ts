/**
 * The allocator's arithmetic (spec step 3), as target positions rather than slices:
 *
 *   target position = direction × confidence × riskFraction × NAV / price   (base units, signed)
 *
 * and the order is the difference between the target and what the account will hold once its
 * resting orders fill. An increase is then scaled down to fit the risk limits — per-symbol and net
 * exposure, gross leverage, and the liquidity guard's volume and depth shares — measured on the same
 * worst-case projection the risk engine uses (./risk/projection.ts), so risk, which remains the
 * judge, sees orders it can approve. Quantities round DOWN to the lot size.
 */
import type { Instrument, MarketSnapshot } from './market.js';
import { floorToLot } from './market.js';
import type { Side } from './orders.js';
import { sideSign } from './orders.js';
import { drawdown } from './risk/drawdown-guard.js';
import type { RiskLimits } from './risk/limits.js';
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

/** The signed position once every resting and pending order fills (reduce-only capped at flat). */
export function expectedPosition(book: SymbolBook | undefined): number {
  if (!book) return 0;
  const { position, open, reduceOnly } = book;
  const reduce =
    position > 0 ? Math.min(reduceOnly.SELL, position) : position < 0 ? -Math.min(reduceOnly.BUY, -position) : 0;
  return position + open.BUY - open.SELL - reduce;
}

/** Which limit made an increase smaller than asked. */
export type ScalingLimit = 'symbol_exposure' | 'total_exposure' | 'leverage' | 'liquidity_volume' | 'liquidity_depth';

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
  ctx: { projection: Projection; market: MarketSnapshot; instrument: Instrument; price: number; limits: RiskLimits },
): FitResult {
  const { projection, market, instrument, price, limits } = ctx;
  const nav = projection.nav;
  if (!(nav > 0)) return { ok: false, code: 'NAV_NOT_POSITIVE', message: `NAV ${nav} is not positive` };
  const dd = drawdown(nav, projection.peakNav);
  if (dd > limits.maxDrawdown)
    return {
      ok: false,
      code: 'DRAWDOWN_BREACH',
      message: `drawdown ${(dd * 100).toFixed(2)}% exceeds ${(limits.maxDrawdown * 100).toFixed(2)}%: only closing`,
    };
  const s = sideSign(side);
  const mark = market.last;
  let othersGross = 0;
  let othersNet = 0;
  for (const book of projection.books.values()) {
    if (book.symbol === market.symbol) continue;
    othersGross += worstAbsPosition(book) * book.mark;
    othersNet += worstPosition(book, side) * book.mark;
  }
  const own = projection.books.get(market.symbol);
  const w = own ? worstPosition(own, side) : 0;
  const traded = Number.isFinite(market.volume) && market.volume > 0 ? market.volume * market.last : 0;
  const room: [ScalingLimit, number][] = [
    ['symbol_exposure', (limits.maxSymbolExposure * nav) / mark - s * w],
    ['total_exposure', (limits.maxTotalExposure * nav - s * (othersNet + w * mark)) / mark],
    ['leverage', (limits.maxLeverage * nav - othersGross) / mark - s * w],
    ['liquidity_volume', (limits.maxVolumeFraction * traded) / price],
    ['liquidity_depth', limits.maxDepthFraction * visibleDepth(side === 'BUY' ? market.asks : market.bids)],
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
  qty = qty > 0 ? floorToLot(qty, instrument.lotSize) : 0;
  if (qty <= 0)
    return {
      ok: false,
      code: 'NO_HEADROOM',
      message: `no room under the ${limitedBy ?? 'risk'} limit for ${market.symbol}`,
    };
  return { ok: true, qty, limitedBy };
}

/**
 * Liquidity guard, measured from the snapshot rather than assumed: the order notional must be at most
 * `maxVolumeFraction` of the recent traded notional (volume × last), and its quantity at most
 * `maxDepthFraction` of the visible book on the side it would take (asks for a BUY, bids for a SELL).
 * Both are per cycle and symbol, not per order: the snapshot's book is one book, so what this cycle's
 * earlier orders take (their quantity on the same side, their notional on either) counts first.
 * A reduce-only order that shrinks a position is never refused outright — the account must always be
 * able to close — but scaled: the guard passes it with code LIQUIDITY_SCALED and `allowedQty`, the
 * largest quantity within both limits, and the engine signs the order at that size (at least one lot),
 * so a large close goes out in slices over several cycles. `value` and `limit` are absolute (quote notional, or base quantity) so an empty market reports a
 * finite limit of 0 instead of an infinite ratio.
 *
 * Freshness comes first: a snapshot older than the feed's staleness limit (FEED_STALE_MS; a live
 * exchange gone silent) measures no liquidity at all, so an order that would add exposure fails with
 * LIQUIDITY_STALE (value = the data's age in ms, limit = the staleness limit). A reduce-only order
 * that shrinks the position goes on to the usual checks on the last known book: a close is never
 * refused. Any other order counts as new exposure, even one that would net against the position:
 * judged beside this cycle's pending close, its "reduction" is an opening (the allocator marks
 * every order that only reduces a position reduce-only).
 */
import { closestToLimit, fmt } from './check.js';
import type { GuardCheck } from './check.js';
import type { RiskLimits } from './limits.js';
import type { BookLevel } from '../market.js';
import type { OrderImpact } from './order-impact.js';

/** Total quantity on one side of the visible book; levels with nonsensical figures count as nothing. */
export function visibleDepth(levels: readonly BookLevel[]): number {
  let total = 0;
  for (const level of levels) {
    if (Number.isFinite(level.qty) && level.qty > 0 && Number.isFinite(level.price) && level.price > 0)
      total += level.qty;
  }
  return total;
}

/** When the market data was judged, and how old it may be (ms). */
export interface Freshness {
  now: number;
  staleMs: number;
}

export function checkLiquidity(
  impact: OrderImpact,
  limits: Pick<RiskLimits, 'maxVolumeFraction' | 'maxDepthFraction'>,
  freshness?: Freshness,
): GuardCheck {
  const { market, order } = impact;
  if (freshness) {
    const age = freshness.now - market.ts;
    if (!(age <= freshness.staleMs) && !impact.reducesPosition) {
      return {
        guard: 'liquidity',
        passed: false,
        code: 'LIQUIDITY_STALE',
        value: Number.isFinite(age) ? age : null,
        limit: freshness.staleMs,
        metrics: { dataAgeMs: Number.isFinite(age) ? age : null, staleLimitMs: freshness.staleMs },
        message: `market data for ${market.symbol} is ${Number.isFinite(age) ? `${Math.round(age)} ms` : 'of unknown age'} old (limit ${freshness.staleMs} ms): no new exposure`,
      };
    }
  }
  const tradedNotional = Number.isFinite(market.volume) && market.volume > 0 ? market.volume * market.last : 0;
  const depth = visibleDepth(order.side === 'BUY' ? market.asks : market.bids);
  // The cycle's earlier orders on this symbol come first; the order gets what they left.
  const volume = { value: impact.takenNotional + impact.notional, limit: limits.maxVolumeFraction * tradedNotional };
  const book = { value: impact.takenQty + impact.qty, limit: limits.maxDepthFraction * depth };
  const metrics = {
    orderNotional: impact.notional,
    cycleNotional: volume.value,
    tradedNotional,
    volumeLimit: volume.limit,
    orderQty: impact.qty,
    cycleQty: book.value,
    visibleDepth: depth,
    depthLimit: book.limit,
  };
  const bookSide = order.side === 'BUY' ? 'ask' : 'bid';
  if (impact.reducesPosition && (volume.value > volume.limit || book.value > book.limit)) {
    const volumeLeft = volume.limit - impact.takenNotional;
    const allowedQty = Math.max(
      0,
      Math.min(impact.price > 0 ? volumeLeft / impact.price : 0, book.limit - impact.takenQty),
    );
    return {
      guard: 'liquidity',
      ...closestToLimit(volume, book),
      metrics: { ...metrics, allowedQty },
      passed: true,
      code: 'LIQUIDITY_SCALED',
      message: `reduce-only close of ${fmt(impact.qty)} is beyond the liquidity limits: scaled to ${fmt(allowedQty)}`,
    };
  }

  if (volume.value > volume.limit) {
    return {
      guard: 'liquidity',
      ...volume,
      metrics,
      passed: false,
      code: 'LIQUIDITY_VOLUME',
      message: `order notional ${fmt(impact.notional)}${cycleNote(impact.takenNotional)} exceeds ${fmt(limits.maxVolumeFraction * 100)}% of recent traded notional ${fmt(tradedNotional)}`,
    };
  }
  if (book.value > book.limit) {
    return {
      guard: 'liquidity',
      ...book,
      metrics,
      passed: false,
      code: 'LIQUIDITY_DEPTH',
      message: `order qty ${fmt(impact.qty)}${cycleNote(impact.takenQty)} exceeds ${fmt(limits.maxDepthFraction * 100)}% of visible ${bookSide} depth ${fmt(depth)}`,
    };
  }
  return {
    guard: 'liquidity',
    ...closestToLimit(volume, book),
    metrics,
    passed: true,
    code: 'OK',
    message: `notional ${fmt(volume.value)} ≤ ${fmt(volume.limit)}, qty ${fmt(book.value)} ≤ ${fmt(book.limit)} (${bookSide} side)`,
  };
}

/** " (+ 20 taken earlier this cycle)" when earlier orders of the cycle count, else nothing. */
function cycleNote(taken: number): string {
  return taken > 0 ? ` (+ ${fmt(taken)} taken earlier this cycle)` : '';
}

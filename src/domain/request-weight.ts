/**
 * What the exchange account's request-weight budget holds back now (issue 32, item 3; the budget is
 * src/adapters/live-venue/weight-budget.ts, the gate request-gate.ts): the share of the minute's
 * weight used, which requests are held and how many were, by kind. The trading heartbeat carries it
 * to /health (`venue.request_weight`) and the metrics; plain data, so the application needs no adapter.
 */

/** A request by what it does: a read, anything that may open exposure, or a close or cancel. */
export type HeldKind = 'read' | 'opening' | 'close';

export const HELD_KINDS: readonly HeldKind[] = ['read', 'opening', 'close'];

export interface RequestWeight {
  /** The exchange's limit per minute (REQUEST_WEIGHT). */
  limit: number;
  /** The minute's weight used (as the exchange last told it) and in flight. */
  used: number;
  /** used / limit. */
  share: number;
  /**
   * `reads_and_openings`: past 80 % of the limit (or one was held this minute), only closes and
   * cancels go; `all`: at the limit, or the exchange asked to wait (429) or banned the IP (418).
   */
  holding: 'none' | 'reads_and_openings' | 'all';
  /** Requests held back since the start, by kind (never sent). */
  held: Record<HeldKind, number>;
}

/** One line for /health's reason, or null when nothing is held. */
export function describeHolding(w: RequestWeight): string | null {
  if (w.holding === 'none') return null;
  const what = w.holding === 'all' ? 'every request' : 'reads and openings (closes and cancels still go)';
  return `the exchange request weight is ${Math.round(w.share * 100)} % of ${w.limit} a minute: ${what} held until the minute rolls or the exchange's wait ends`;
}

/**
 * Signal: what a strategy agent produces (spec section 2). `direction` is a signed integer: +1 long,
 * −1 short, 0 flat — "exit the position I asked for" (the allocator closes the symbol's position when
 * the agent whose signal set it says flat; see allocation.ts). No signal at all means no opinion: the
 * position is held.
 *
 * `confidence` is in [0, 1] and on one scale for every agent: the size of the position the agent
 * wants, as a share of the full risk budget (riskFraction × NAV). 1 = "as strong as this agent's
 * signals get" — the edge at which it would commit the whole budget; 0.25 = a quarter of it. Agents
 * calibrate their own mapping to this scale (see each strategy's module comment). For an exit the
 * confidence only ranks it; give 1.
 */
/**
 * A size a signal may carry instead of the confidence scale: exactly one of a quantity (base units),
 * a notional (quote currency, at the side the order takes) or a fraction of NAV (0.25 = a quarter of
 * NAV, not a percentage). It replaces `confidence × riskFraction × NAV` as the target position;
 * everything after is the same — the no-trade band, the exchange's lot rules and every risk guard,
 * which scale an opening down to what the limits allow. Ignored on an exit (direction 0).
 */
export interface SignalTarget {
  qty?: number;
  notional?: number;
  navFraction?: number;
}

/** What a strategy's `analyse` returns for a symbol: direction, confidence and, optionally, its own size. */
export interface Signal {
  agent: string;
  symbol: string;
  direction: number;
  /** Also the signal's rank in arbitration (weight × confidence), with or without a target. */
  confidence: number;
  /** Optional explicit size (see SignalTarget). */
  target?: SignalTarget;
  /** Human-readable why, for the audit trail (never on the spec's event line). */
  rationale?: string;
}

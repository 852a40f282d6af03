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
export interface Signal {
  agent: string;
  symbol: string;
  direction: number;
  confidence: number;
  /** Human-readable why, for the audit trail (never on the spec's event line). */
  rationale?: string;
}

/**
 * Signal: what a strategy agent produces (spec section 2). `direction` is a signed integer
 * (+1 long, −1 short); `confidence` is in [0, 1].
 */
export interface Signal {
  agent: string;
  symbol: string;
  direction: number;
  confidence: number;
  /** Human-readable why, for the audit trail (never on the spec's event line). */
  rationale?: string;
}

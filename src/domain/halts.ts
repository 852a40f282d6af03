/**
 * The safety halt as data: why trading stopped opening exposure (the store or the control plane was
 * lost, the store is not the one known, the lease is unsure), since when, and the halts it replaced
 * without trading in between. The root statechart owns the current halt (machines/trading.machine.ts);
 * these pure functions decide how an observed fault changes it and what the audit trail records when
 * it ends, so the machine, the heartbeat and the audit entries all derive from the same record.
 */

/** A fault the safety checks observed (src/application/safety-monitor.ts). */
export interface SafetyFault {
  /** A stable code: store_unreachable, store_write_refused, store_rolled_back, control_plane_lost, … */
  reason: string;
  message: string;
}

export interface SafetyHalt extends SafetyFault {
  /** Epoch ms when the halt began. */
  since: number;
  /**
   * The halts this one replaced without trading in between, oldest first (a store away longer than
   * CONTROL_PLANE_TIMEOUT comes back to a stale API heartbeat): each is recorded when the halt ends.
   */
  earlier: readonly SafetyHalt[];
}

/** Replaced halts remembered until the halt ends (each becomes an audit entry then). */
export const MAX_EARLIER_HALTS = 64;

/**
 * The halt after observing `fault` at `at`: the same reason keeps the current halt (null: nothing
 * changes); another reason replaces it and remembers it, bounded for a halt that flaps for hours (the
 * first, where it began, and the latest are kept).
 */
export function haltOn(current: SafetyHalt | null, fault: SafetyFault, at: number): SafetyHalt | null {
  if (current?.reason === fault.reason) return null;
  let earlier = current === null ? [] : [...current.earlier, { ...current, earlier: [] }];
  if (earlier.length > MAX_EARLIER_HALTS) earlier = [earlier[0]!, ...earlier.slice(-(MAX_EARLIER_HALTS - 1))];
  return { reason: fault.reason, message: fault.message, since: at, earlier };
}

/** A cancelled order as the halt's last audit entry names it. */
export interface CancelledAtEnd {
  client_order_id: string;
  symbol: string;
}

/** One `trading_halt` audit entry. */
export interface HaltEntry {
  at: string;
  body: {
    reason: string;
    message: string;
    since: string;
    until: string;
    replaced_by?: string;
    cancelled_at_end?: CancelledAtEnd[];
  };
}

/**
 * The audit entries of a halt that ended at `until`: one per halt, the replaced ones first, each
 * ending when the next began; the last names the orders cancelled as it ended.
 */
export function haltEntries(halt: SafetyHalt, until: number, cancelled: readonly CancelledAtEnd[]): HaltEntry[] {
  const halts = [...halt.earlier, halt];
  return halts.map((h, i) => {
    const last = i === halts.length - 1;
    const end = new Date(last ? until : halts[i + 1]!.since).toISOString();
    return {
      at: end,
      body: {
        reason: h.reason,
        message: h.message,
        since: new Date(h.since).toISOString(),
        until: end,
        ...(last ? { cancelled_at_end: [...cancelled] } : { replaced_by: halts[i + 1]!.reason }),
      },
    };
  });
}

/**
 * A safety halt's start in the audit trail (`trading_halt_started`), so the notifier tells an
 * operator when trading stops, not only when it resumes: the notifier follows the audit chain and
 * nothing else. Only for halts that leave the store and this process's right to write it beyond
 * doubt (the control plane, the exchange): a halt over the store, the latch, the lease or the clock
 * must not be answered by a write to that store (a store that came back empty or replaced must stay
 * a fault, never gain an entry), and is told by its end (`trading_halt`, halt-recovery.ts), by the
 * alert rules and by the console. Best effort; the halt itself never waits for this write.
 */
import type { HaltReason } from '../domain/halt-reasons.js';
import type { SafetyHalt } from '../domain/halts.js';
import type { EventStore } from '../ports/event-store.js';

/** What the trading process logs (warn) when the store refused the start's entry. */
export const HALT_START_UNRECORDED =
  'the halt could not be recorded as it began (the store may be its cause); its end will be';

/** The halts recorded as they begin: their cause is outside the store. */
export const RECORDED_AT_START: ReadonlySet<HaltReason> = new Set<HaltReason>([
  'control_plane_lost',
  'exchange_unreachable',
  'exchange_banned',
  'exchange_clock_skew',
  'exchange_switch_down',
]);

export async function recordHaltStart(events: EventStore, halt: SafetyHalt): Promise<void> {
  if (!RECORDED_AT_START.has(halt.reason as HaltReason)) return;
  await events.append({
    kind: 'trading_halt_started',
    at: new Date(halt.since).toISOString(),
    body: { reason: halt.reason, message: halt.message, since: new Date(halt.since).toISOString() },
  });
}

/**
 * A safety halt's start in the audit trail (`trading_halt_started`), so the notifier tells an
 * operator when trading stops, not only when it resumes: the notifier follows the audit chain and
 * nothing else. Best effort by nature: a halt caused by the store (unreachable, refusing writes)
 * cannot be written to it, and is then told by its end (`trading_halt`, halt-recovery.ts), by the
 * alert rules and by the console. The halt itself never waits for this write.
 */
import type { SafetyHalt } from '../domain/halts.js';
import type { EventStore } from '../ports/event-store.js';

/** What the trading process logs (warn) when the store refused the start's entry. */
export const HALT_START_UNRECORDED =
  'the halt could not be recorded as it began (the store may be its cause); its end will be';

export async function recordHaltStart(events: EventStore, halt: SafetyHalt): Promise<void> {
  await events.append({
    kind: 'trading_halt_started',
    at: new Date(halt.since).toISOString(),
    body: { reason: halt.reason, message: halt.message, since: new Date(halt.since).toISOString() },
  });
}

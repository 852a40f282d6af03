/**
 * The control transition, the one way the system state changes: read the stored record, let the
 * control statechart decide (machines/control.machine.ts), and write the result with a
 * compare-and-set on the epoch, so two callers in different processes can never both move the
 * state from the same record. A lost race decides again on the record it lost to, until a deadline
 * (then ControlContentionError: nothing written); a kill has priority over every other change
 * (kill-priority.ts). Every call is audited, also when nothing changed or the statechart refused.
 */
import { decideControl } from '../../machines/control.machine.js';
import type { ControlActor, ControlApplyResult, ControlEvent, ControlRecord } from '../domain/control.js';
import { monotonicNow, systemClock } from '../ports/clock.js';
import type { Clock } from '../ports/clock.js';
import type { ControlStore } from '../ports/control-store.js';
import type { NewAuditEvent } from '../ports/event-store.js';
import { ControlContentionError } from '../ports/store-errors.js';
import type { KillPriority } from './kill-priority.js';

/**
 * How long a control change keeps deciding again after losing the race for the record before it
 * gives up (ControlContentionError: nothing written, the API answers 503 with Retry-After). Far
 * more than a few processes racing ever need, far less than an operator waits for an answer.
 */
export const CONTROL_DEADLINE_MS = 2_000;

export interface ControlWriteOptions {
  /**
   * Fairness among control writers (kill-priority.ts): a kill that lost a race announces itself and
   * other changes stand aside while it is pending. Without it this writer neither yields nor announces.
   */
  priority?: KillPriority;
  /** Lost races are retried for this long (default CONTROL_DEADLINE_MS). */
  deadlineMs?: number;
  /** "now" for the deadline and the priority mark (the system clock by default). */
  clock?: Clock;
}

/**
 * Callers in one process take turns per store, so they do not all decide on the same record and
 * lose the compare-and-set to each other; retries are left for races with other processes. A kill
 * does not wait for its turn: it must never queue behind the changes it is meant to override.
 */
const turns = new WeakMap<ControlStore, Promise<unknown>>();

function inTurn<T>(store: ControlStore, task: () => Promise<T>): Promise<T> {
  const previous = turns.get(store) ?? Promise.resolve();
  const result = previous.then(task, task);
  turns.set(
    store,
    result.catch(() => undefined),
  );
  return result;
}

/**
 * A short random pause after lost races, so two processes do not collide again in lockstep; it grows
 * with the attempts up to 50 ms. A kill pauses at most 2 ms: it has priority (see above).
 */
function backOff(attempt: number, kill: boolean): Promise<void> {
  const ceiling = kill ? 2 : Math.min(50, 2 * attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}

/** Offers `event` to the statechart on the stored state and records the outcome atomically. */
export function applyControl(
  store: ControlStore,
  event: ControlEvent,
  who: ControlActor,
  options: ControlWriteOptions = {},
): Promise<ControlApplyResult> {
  const run = () => decideAndWrite(store, event, who, options);
  return event.type === 'control.kill' ? run() : inTurn(store, run);
}

async function decideAndWrite(
  store: ControlStore,
  event: ControlEvent,
  who: ControlActor,
  options: ControlWriteOptions,
): Promise<ControlApplyResult> {
  const kill = event.type === 'control.kill';
  return withDeadline<ControlApplyResult>(`control ${event.type}`, kill, options, async (attempt) => {
    const current = attempt.current ?? (await store.read());
    const decision = decideControl(current.state, event);
    const next: ControlRecord | null =
      decision.outcome === 'changed'
        ? { ...current, state: decision.to, epoch: current.epoch + 1, reason: event.reason, changed_at: who.at }
        : null;
    const record = next ?? current;
    const body = { event: event.type, reason: event.reason, ...decision, epoch: record.epoch, actor: who.actor };
    const audit = { kind: 'control', at: who.at, symbol: null, body };
    const written = await writeOn(store, current, next, attempt, audit, kill);
    return written === true ? { done: { ...decision, event, record } } : { lostTo: written };
  });
}

/**
 * One compare-and-set on `current`: true when written, otherwise the record it lost to (for the next
 * decision), within the attempt's remaining time for the store's own retries.
 */
async function writeOn(
  store: ControlStore,
  current: ControlRecord,
  next: ControlRecord | null,
  attempt: Attempt,
  audit: NewAuditEvent,
  priority = false,
): Promise<true | ControlRecord> {
  const written = await store.compareAndSet({
    expectedEpoch: current.epoch,
    expectedStoreId: current.store_id,
    next,
    timeoutMs: attempt.remainingMs,
    audit,
    priority,
  });
  return written.written ? true : written.current;
}

interface Attempt {
  /** The record the last lost race returned (null on the first attempt: read it). */
  current: ControlRecord | null;
  /** Time left before the deadline, for the store's own retries. */
  remainingMs: number;
}

/**
 * Runs `attempt` until it is done or the deadline passes (ControlContentionError), pausing a little
 * between lost races. Only a kill announces itself after a lost race (and withdraws at the end);
 * every other change first checks that no kill is pending and waits while one is.
 */
async function withDeadline<T>(
  what: string,
  kill: boolean,
  options: ControlWriteOptions,
  attempt: (a: Attempt) => Promise<{ done: T } | { lostTo: ControlRecord }>,
): Promise<T> {
  const clock = options.clock ?? systemClock;
  const deadlineMs = options.deadlineMs ?? CONTROL_DEADLINE_MS;
  // Monotonic: a wall-clock step must neither cut a control write short nor stretch it.
  const elapsed = () => monotonicNow(clock);
  const deadline = elapsed() + deadlineMs;
  const { priority } = options;
  let announced = false;
  let current: ControlRecord | null = null;
  try {
    for (let n = 1; ; n++) {
      // Standing aside: decided after the kill, this change is judged on the killed record.
      if (!kill && priority) await standAside(priority, elapsed, deadline, what, n);
      const outcome = await attempt({ current, remainingMs: Math.max(1, deadline - elapsed()) });
      if ('done' in outcome) return outcome.done;
      if (elapsed() >= deadline)
        throw new ControlContentionError(
          `${what}: the control record kept changing under other writers for ${deadlineMs} ms; nothing was written, try again`,
        );
      if (kill && priority && !announced) {
        // Only about who goes first: a mark that cannot be written must not stop the kill itself.
        await priority.announce(Math.max(1, Math.ceil(deadline - elapsed()))).catch(() => {});
        announced = true;
      }
      // The record a lost race returns is as fresh as it gets: decide on it at once. After a second
      // loss, pause (so two writers do not collide in lockstep) and read afresh, since the record
      // returned before the pause is stale by the end of it.
      if (n === 1) {
        current = outcome.lostTo;
      } else {
        await backOff(n, kill);
        current = null;
      }
    }
  } finally {
    if (announced) await priority?.withdraw().catch(() => {});
  }
}

/** Waits while a kill is pending (a fresh record is read afterwards); past the deadline, gives up. */
async function standAside(
  priority: KillPriority,
  elapsed: () => number,
  deadline: number,
  what: string,
  attempt: number,
) {
  while (await priority.pending()) {
    if (elapsed() >= deadline)
      throw new ControlContentionError(`${what}: a kill was still being recorded at the deadline; nothing was written`);
    await backOff(attempt, false);
  }
}

/**
 * The operator's manual restart after a kill (outside the API): killed → running with epoch + 1 and
 * a `kill_reset` audit entry. The statechart's `killed` is final, so this is not one of its
 * transitions: it is the statechart starting over from its initial state, recorded as such. Returns
 * the record unchanged (and writes nothing) when the system is not killed.
 */
export function resetKill(
  store: ControlStore,
  who: ControlActor,
  reason: string,
  options: ControlWriteOptions = {},
): Promise<ControlRecord> {
  return inTurn(store, () =>
    withDeadline<ControlRecord>('control kill reset', false, options, async (attempt) => {
      const current = attempt.current ?? (await store.read());
      if (current.state !== 'killed') return { done: current };
      const next: ControlRecord = {
        ...current,
        state: 'running',
        epoch: current.epoch + 1,
        reason,
        changed_at: who.at,
      };
      const body = { reason, from: 'killed', to: 'running', epoch: next.epoch, actor: who.actor };
      const written = await writeOn(store, current, next, attempt, {
        kind: 'kill_reset',
        at: who.at,
        symbol: null,
        body,
      });
      return written === true ? { done: next } : { lostTo: written };
    }),
  );
}

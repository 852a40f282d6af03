/**
 * The control transition, the one way the system state changes: read the stored record, let the
 * control statechart decide (machines/control.machine.ts), and write the result with a
 * compare-and-set on the epoch, so two callers in different processes can never both move the
 * state from the same record. A lost race re-reads and decides again. Every call is audited, also
 * when nothing changed or the statechart refused.
 */
import { decideControl } from '../../machines/control.machine.js';
import type { ControlActor, ControlApplyResult, ControlEvent, ControlRecord } from '../domain/control.js';
import type { ControlStore } from '../ports/control-store.js';

/** Far more than a few processes racing ever need; reaching it means something writes in a loop. */
const MAX_ATTEMPTS = 50;

/**
 * Callers in one process take turns per store, so they do not all decide on the same record and
 * lose the compare-and-set to each other; retries are left for races with other processes.
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

/** A short random pause after a lost race, so two processes do not collide again in lockstep. */
function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(25, attempt)));
}

export class ControlContentionError extends Error {
  constructor(what: string) {
    super(`${what}: the control record kept changing under ${MAX_ATTEMPTS} attempts; nothing was written, try again`);
    this.name = 'ControlContentionError';
  }
}

/** Offers `event` to the statechart on the stored state and records the outcome atomically. */
export function applyControl(store: ControlStore, event: ControlEvent, who: ControlActor): Promise<ControlApplyResult> {
  return inTurn(store, () => decideAndWrite(store, event, who));
}

async function decideAndWrite(
  store: ControlStore,
  event: ControlEvent,
  who: ControlActor,
): Promise<ControlApplyResult> {
  let current = await store.read();
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const decision = decideControl(current.state, event);
    const next: ControlRecord | null =
      decision.outcome === 'changed'
        ? { ...current, state: decision.to, epoch: current.epoch + 1, reason: event.reason, changed_at: who.at }
        : null;
    const record = next ?? current;
    const written = await store.compareAndSet({
      expectedEpoch: current.epoch,
      expectedStoreId: current.store_id,
      next,
      audit: {
        kind: 'control',
        at: who.at,
        symbol: null,
        body: {
          event: event.type,
          reason: event.reason,
          outcome: decision.outcome,
          from: decision.from,
          to: decision.to,
          epoch: record.epoch,
          actor: who.actor,
        },
      },
    });
    if (written.written) return { ...decision, event, record };
    current = written.current;
    await backOff(attempt);
  }
  throw new ControlContentionError(`control ${event.type}`);
}

/**
 * The operator's manual restart after a kill (outside the API): killed → running with epoch + 1 and
 * a `kill_reset` audit entry. The statechart's `killed` is final, so this is not one of its
 * transitions: it is the statechart starting over from its initial state, recorded as such. Returns
 * the record unchanged (and writes nothing) when the system is not killed.
 */
export function resetKill(store: ControlStore, who: ControlActor, reason: string): Promise<ControlRecord> {
  return inTurn(store, () => writeReset(store, who, reason));
}

async function writeReset(store: ControlStore, who: ControlActor, reason: string): Promise<ControlRecord> {
  let current = await store.read();
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (current.state !== 'killed') return current;
    const next: ControlRecord = { ...current, state: 'running', epoch: current.epoch + 1, reason, changed_at: who.at };
    const written = await store.compareAndSet({
      expectedEpoch: current.epoch,
      expectedStoreId: current.store_id,
      next,
      audit: {
        kind: 'kill_reset',
        at: who.at,
        symbol: null,
        body: { reason, from: 'killed', to: 'running', epoch: next.epoch, actor: who.actor },
      },
    });
    if (written.written) return next;
    current = written.current;
    await backOff(attempt);
  }
  throw new ControlContentionError('control kill reset');
}

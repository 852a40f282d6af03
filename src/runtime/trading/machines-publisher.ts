/**
 * Publishes the active states of the root, the current cycle and the order manager to the store
 * (MACHINES_KEY) for the API's GET /control/machines and the `machines` stream event. It observes
 * the actors from outside (machines stay pure) and only pokes a coalescer on each snapshot: the
 * document is read from the actors' latest snapshots when the write happens, at most once per
 * PUBLISH_INTERVAL_MS, so a cycle's dozen transitions cost one write and the last state always
 * lands; a document whose states did not change since the last write is not written again. Never started in simulated-clock runs (`tcs simulate`): they pay nothing for it.
 * A failed write is logged once per outage and retried; trading never waits for it.
 */
import type { Logger } from 'pino';
import type { Actor, AnyActorRef, AnyMachineSnapshot, Subscription } from 'xstate';
import { findOms } from '../../../machines/system.js';
import type { tradingMachine } from '../../../machines/trading.machine.js';
import { createCoalescer } from '../../application/coalescer.js';
import type { Timers } from '../../application/coalescer.js';
import { machinesDocument } from '../../application/machine-states.js';
import { MACHINES_KEY } from '../../domain/runtime-documents.js';
import type { Clock } from '../../ports/clock.js';
import { writeDocument } from '../../ports/documents.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';

/** At most one write per this many ms; the console's view lags a transition by about this much. */
export const PUBLISH_INTERVAL_MS = 100;
/** After a failed write: the store is likely down, and the safety monitor is dealing with that. */
const RETRY_MS = 1_000;

export interface MachinesPublisherDeps {
  actor: Actor<typeof tradingMachine>;
  /** The fenced key-value store: a process that lost the lease writes nothing. */
  kv: KeyValueStore;
  clock: Clock;
  log: Logger;
  intervalMs?: number;
  /** After a failed write, ms (RETRY_MS by default). */
  retryMs?: number;
  timers?: Timers;
}

export interface MachinesPublisher {
  /** Stops observing and writes the last state once (the root's `stopped`). */
  stop(): Promise<void>;
}

/** The cycle actor among the root's children (its `src` is the root's name for it); one per running period. */
function cycleChild(snapshot: AnyMachineSnapshot): AnyActorRef | undefined {
  return Object.values(snapshot.children as Record<string, AnyActorRef | undefined>).find((c) => c?.src === 'cycle');
}

export function startMachinesPublisher(deps: MachinesPublisherDeps): MachinesPublisher {
  const { actor, kv, clock, log } = deps;
  let failing = false;
  let written = '';
  const coalescer = createCoalescer({
    intervalMs: deps.intervalMs ?? PUBLISH_INTERVAL_MS,
    retryMs: deps.retryMs ?? RETRY_MS,
    timers: deps.timers,
    async run() {
      const doc = snapshotDocument();
      // Snapshots also move on context changes alone (an agent's reply, a queued job): same states, no write.
      const key = JSON.stringify([doc.cycle, doc.active]);
      if (key === written) return;
      await writeDocument(kv, MACHINES_KEY, doc);
      written = key;
    },
    settled(err) {
      if (err === undefined) {
        if (failing) log.info('machine states: publishing again');
        failing = false;
      } else if (!failing) {
        failing = true;
        log.warn({ err }, 'machine states: publishing failed; retrying quietly until it works');
      }
    },
  });
  const poke = () => coalescer.poke();

  const snapshotDocument = () => {
    const root = actor.getSnapshot();
    const actorSnapshot = cycleChild(root)?.getSnapshot() as AnyMachineSnapshot | undefined;
    // Between cycles the long-lived cycle actor waits in `idle`: no cycle runs, none is published.
    const cycle = actorSnapshot?.matches('idle') ? undefined : actorSnapshot;
    return machinesDocument(clock.now(), {
      trading: root,
      cycle: cycle ? { number: (cycle.context as { cycle: number }).cycle, snapshot: cycle } : undefined,
      orderManager: findOms(actor.system)?.getSnapshot(),
    });
  };

  // Children get an error listener: an observer without one would turn an error their parent
  // handles (a failed cycle actor is the root's to handle) into an unhandled one. The root keeps
  // XState's default (its errors stay unhandled, as without this observer).
  const watchChild = (ref: AnyActorRef | undefined) => ref?.subscribe({ next: poke, error: poke, complete: poke });
  const subscriptions: (Subscription | undefined)[] = [watchChild(findOms(actor.system))];
  let watchedCycle: AnyActorRef | undefined;
  let cycleSubscription: Subscription | undefined;
  subscriptions.push(
    actor.subscribe((snapshot) => {
      const cycle = cycleChild(snapshot);
      if (cycle !== watchedCycle) {
        cycleSubscription?.unsubscribe();
        watchedCycle = cycle;
        cycleSubscription = watchChild(cycle);
      }
      poke();
    }),
  );
  poke();

  return {
    async stop() {
      for (const s of subscriptions) s?.unsubscribe();
      cycleSubscription?.unsubscribe();
      await coalescer.flush();
      coalescer.stop();
    },
  };
}

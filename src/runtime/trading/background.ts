/**
 * The trading process's work outside the cycle: store notifications (control changes reach the root
 * within milliseconds; enqueued commands are claimed at once) and two real-time timers — the
 * heartbeat, which also re-reads the control record (a missed notification is bounded to
 * HEARTBEAT_MS) and publishes the metrics text; and a command re-claim for leases that expired (a
 * crash mid-command). Returns a function that stops all of it.
 */
import type { Logger } from 'pino';
import type { ControlRecord } from '../../domain/control.js';
import type { Store } from '../../ports/store.js';

export interface BackgroundDeps {
  store: Store;
  log: Logger;
  heartbeatMs: number;
  syncControl(record: ControlRecord): void;
  pumpCommands(): Promise<void>;
  heartbeat(): Promise<void>;
  publishMetrics(): Promise<void>;
  /** Timers are off in simulated-clock tests, which drive everything themselves. */
  timers: boolean;
}

const RECLAIM_MS = 2_000;

export async function startBackground(deps: BackgroundDeps): Promise<() => Promise<void>> {
  const { store, log } = deps;
  const pump = () => void deps.pumpCommands().catch((err: unknown) => log.warn({ err }, 'claiming commands failed'));
  const unsubscribers = [
    await store.control.subscribe((record) => deps.syncControl(record)),
    await store.commands.subscribe(pump),
  ];
  const timers: NodeJS.Timeout[] = [];
  if (deps.timers) {
    // Not unref'd: while paused or killed no other timer runs, and this keeps the process serving.
    timers.push(
      setInterval(() => {
        store.control
          .read()
          .then(deps.syncControl)
          .then(deps.heartbeat)
          .then(deps.publishMetrics)
          .catch((err: unknown) => log.warn({ err }, 'heartbeat write failed'));
      }, deps.heartbeatMs),
    );
    timers.push(setInterval(pump, RECLAIM_MS).unref());
  }
  return async () => {
    for (const t of timers) clearInterval(t);
    for (const unsubscribe of unsubscribers) await unsubscribe();
  };
}

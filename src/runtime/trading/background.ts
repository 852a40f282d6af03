/**
 * The trading process's work outside the cycle: store notifications (control changes reach the root
 * within milliseconds; enqueued commands are claimed at once) and real-time timers — the safety
 * monitor's tick (store trusted and reachable, control plane alive; it also re-reads the control
 * record, so a missed notification is bounded to a tick), the heartbeat with the metrics text, the
 * lease renewal, and a command re-claim for leases that expired (a crash mid-command). Returns a
 * function that stops all of it.
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
  /** The safety monitor's tick (src/application/safety-monitor.ts). */
  safetyTick(): Promise<void>;
  /** Renews the trading lease; called every third of its duration. */
  renewLease(): Promise<void>;
  leaseMs: number;
  /** Timers are off in simulated-clock tests, which drive everything themselves. */
  timers: boolean;
}

const RECLAIM_MS = 2_000;
/** How often the safety monitor looks; short, so a halt follows its condition closely. */
export const SAFETY_TICK_MS = 250;

export async function startBackground(deps: BackgroundDeps): Promise<() => Promise<void>> {
  const { store, log } = deps;
  const pump = () => void deps.pumpCommands().catch((err: unknown) => log.warn({ err }, 'claiming commands failed'));
  const unsubscribers = [
    await store.control.subscribe((record) => deps.syncControl(record)),
    await store.commands.subscribe(pump),
  ];
  const timers: NodeJS.Timeout[] = [];
  if (deps.timers) {
    // Not unref'd: while paused, killed or halted no other timer runs, and this keeps the process serving.
    timers.push(
      setInterval(
        () => void deps.safetyTick().catch((err: unknown) => log.error({ err }, 'safety check failed')),
        SAFETY_TICK_MS,
      ),
    );
    timers.push(
      setInterval(() => {
        deps
          .heartbeat()
          .then(deps.publishMetrics)
          .catch((err: unknown) => log.warn({ err }, 'heartbeat write failed'));
      }, deps.heartbeatMs),
    );
    timers.push(setInterval(() => void deps.renewLease(), Math.max(100, Math.floor(deps.leaseMs / 3))));
    timers.push(setInterval(pump, RECLAIM_MS).unref());
  }
  return async () => {
    for (const t of timers) clearInterval(t);
    for (const unsubscribe of unsubscribers) await unsubscribe().catch(() => {});
  };
}

/**
 * One trading process per store. Two would each rewrite the paper account over the other's (a kill's
 * cancels resurrected by the other's next save). Before starting, the heartbeat in the store is
 * checked: a fresh one from a live process (another host, or a pid that still exists here) refuses
 * the start. A heartbeat from a process that died (SIGKILL, crash) or stopped cleanly does not block,
 * so a supervisor restart takes over at once. This is a guard, not a lock: two processes started in
 * the same instant on different hosts are not caught.
 */
import { hostname } from 'node:os';
import { HEARTBEAT_KEY, HEARTBEAT_STALE_MS } from '../../domain/runtime-documents.js';
import type { TradingHeartbeat } from '../../domain/runtime-documents.js';
import type { Clock } from '../../ports/clock.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';

export class AnotherTradingProcessError extends Error {
  override name = 'AnotherTradingProcessError';
}

export async function assertNoOtherTradingProcess(kv: KeyValueStore, clock: Clock): Promise<void> {
  const beat = await kv.get<TradingHeartbeat>(HEARTBEAT_KEY);
  if (!beat || beat.stopped || beat.pid === process.pid) return;
  const age = clock.now() - beat.ts;
  if (age > HEARTBEAT_STALE_MS) return;
  const here = hostname();
  if (beat.host === here && !isAlive(beat.pid)) return;
  throw new AnotherTradingProcessError(
    `another trading process is running on this store (pid ${beat.pid} on ${beat.host ?? 'an unknown host'}, ` +
      `heartbeat ${Math.round(age)} ms ago); stop it first`,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else — alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

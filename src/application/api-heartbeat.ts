/**
 * The API process's heartbeat in the store (src/domain/runtime-documents.ts ApiHeartbeat): the
 * trading process opens no new exposure when it has not seen it move for CONTROL_PLANE_TIMEOUT,
 * because then nobody could pause or kill it. A failed write is only logged: the trading process
 * halts on its own when the store is gone.
 */
import { API_HEARTBEAT_KEY } from '../domain/runtime-documents.js';
import type { ApiHeartbeat } from '../domain/runtime-documents.js';
import type { Clock } from '../ports/clock.js';
import { writeDocument } from '../ports/documents.js';
import type { KeyValueStore } from '../ports/key-value-store.js';

export interface ApiHeartbeatDeps {
  kv: KeyValueStore;
  clock: Clock;
  intervalMs: number;
  identity: { pid: number; host: string };
  /** Must succeed before each beat (the API's trusted read of the control record); no beat otherwise. */
  precondition?(): Promise<void>;
  onError(err: unknown): void;
}

/** Beats at once and then every `intervalMs`; returns a function that stops it. */
export function startApiHeartbeat(deps: ApiHeartbeatDeps): () => void {
  let seq = 0;
  let beating = false;
  const beat = () => {
    // A beat slower than the interval (a slow store) is not joined by another: they never overlap.
    if (beating) return;
    beating = true;
    const write = async () => {
      await deps.precondition?.();
      seq += 1;
      const doc: ApiHeartbeat = { ...deps.identity, ts: deps.clock.now(), seq };
      await writeDocument(deps.kv, API_HEARTBEAT_KEY, doc);
    };
    write()
      .catch(deps.onError)
      .finally(() => {
        beating = false;
      });
  };
  beat();
  const timer = setInterval(beat, deps.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Where trials run: a pool of worker processes on this machine (local-pool.ts) or a BullMQ queue
 * that `tcs sweep-worker` processes on any machine take trials from (queue-coordinator.ts). Both
 * run the same trial-runner.ts, so the same trial gives the same figures through either.
 */
import type { TrialResult } from './trial-runner.js';
import type { TrialJob } from './sweep-trials.js';

export interface TrialExecutor {
  /** Runs every job (in any order, as many at once as there are workers); onDone after each. */
  run(jobs: readonly TrialJob[], onDone: (result: TrialResult) => void): Promise<TrialResult[]>;
  close(): Promise<void>;
}

/** Messages between `tcs sweep` and its local worker processes (`tcs sweep-worker --ipc`). */
export type ToWorker = { type: 'trial'; job: TrialJob; out: string };
export type FromWorker =
  { type: 'ready' } | { type: 'done'; result: TrialResult } | { type: 'failed'; id: string; message: string };

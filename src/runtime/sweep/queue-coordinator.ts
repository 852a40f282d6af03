/**
 * The executor of `tcs sweep --queue redis://…`: each trial becomes a BullMQ job that any
 * `tcs sweep-worker` on any machine takes. The job's id is the trial's id and a hash of its content
 * and of what its result rests on (its data and strategy modules, trial-basis.ts; the code names the
 * queue), so a trial is queued once however often it is added (a sweep run again with the same spec
 * and inputs picks up the results already there, but not after the data changed), and a job is done exactly once: BullMQ accepts a result only from the
 * worker that holds the job's lock, and a job whose worker died is moved back to the queue (stalled)
 * and taken by another. Each result is read once, by trial id, then its job is removed.
 */
import { createHash } from 'node:crypto';
import { Queue, QueueEvents } from 'bullmq';
import type { Job } from 'bullmq';
import type { TrialExecutor } from './trial-executor.js';
import type { TrialResult } from './trial-runner.js';
import { queueConnection, queueName } from './sweep-queue.js';
import type { QueuedTrial, QueueSettings } from './sweep-queue.js';
import { codeFingerprint, trialBasis } from './trial-basis.js';

export function jobId(job: QueuedTrial): string {
  const hash = createHash('sha256').update(JSON.stringify(job)).digest('hex').slice(0, 16);
  return `${job.id}-${hash}`;
}

export function createQueueCoordinator(settings: QueueSettings): TrialExecutor {
  const connection = queueConnection(settings);
  const name = queueName();
  const queue = new Queue<QueuedTrial, TrialResult>(name, { connection, prefix: settings.prefix });
  const events = new QueueEvents(name, { connection, prefix: settings.prefix });
  return {
    async run(jobs, onDone) {
      await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
      const queued: QueuedTrial[] = jobs.map((job) => ({ ...job, basis: trialBasis(job) }));
      const added = await queue.addBulk(
        queued.map((job) => ({
          name: 'trial',
          data: job,
          // A failure is deterministic (the same trial fails the same way): no retries. A worker that
          // dies is not a failure: its job stalls and is retried (the worker's maxStalledCount).
          opts: { jobId: jobId(job), attempts: 1, removeOnComplete: false, removeOnFail: false },
        })),
      );
      // Otherwise a sweep without workers would wait in silence. Said once the trials are queued.
      if ((await queue.getWorkersCount()) === 0)
        process.stderr.write(
          `tcs sweep: no tcs sweep-worker is connected to ${settings.url} (prefix ${settings.prefix}) yet; the trials wait in the queue until one is (workers of this build only: code ${codeFingerprint().slice(0, 16)})\n`,
        );
      const results = new Map<string, TrialResult>();
      await Promise.all(added.map((job) => settle(job, events, results, onDone)));
      return jobs.map((job) => results.get(job.id)!);
    },
    async close() {
      await Promise.allSettled([events.close(), queue.close()]);
    },
  };
}

async function settle(
  job: Job<QueuedTrial, TrialResult>,
  events: QueueEvents,
  results: Map<string, TrialResult>,
  onDone: (result: TrialResult) => void,
): Promise<void> {
  let result: TrialResult;
  try {
    result = await job.waitUntilFinished(events);
  } catch (err) {
    // Removed, so that the same sweep run again (after a fix) runs the trial again.
    await job.remove().catch(() => {});
    throw new Error(`trial ${job.data.id} failed on its worker: ${(err as Error).message}`);
  }
  // Written once per trial id, whatever BullMQ or a rerun delivers.
  if (results.has(result.id)) return;
  results.set(result.id, result);
  onDone(result);
  await job.remove().catch(() => {});
}

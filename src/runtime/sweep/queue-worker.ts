/**
 * `tcs sweep-worker --queue redis://…`: takes trials from a sweep's BullMQ queue, one at a time,
 * runs each in-process (trial-runner.ts) and hands back its figures; any number of these, on any
 * machines, share a sweep. BullMQ renews the job's lock every lockDuration/2 while the trial runs
 * (the run yields to the event loop every 64 cycles, so the renewal is never starved); a worker that
 * dies stops renewing, and after lockDuration another worker's stalled check (every stalledInterval)
 * puts the job back in the queue. Ctrl-C or SIGTERM end the worker at once: its trial goes back the
 * same way, so stopping a worker never loses or half-records a trial.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import type { Job } from 'bullmq';
import { runTrial, TrialInterrupted } from './trial-runner.js';
import type { TrialResult } from './trial-runner.js';
import { queueConnection, queueName } from './sweep-queue.js';
import type { QueuedTrial, QueueSettings } from './sweep-queue.js';
import { trialBasis } from './trial-basis.js';
import { freezeHook } from './test-freeze.js';

export interface WorkerSettings extends QueueSettings {
  lockMs: number;
  stalledMs: number;
  maxStalled: number;
  /** Where trials run; null: a temporary directory per trial, removed after it. */
  runsDir: string | null;
}

export async function runQueueWorker(settings: WorkerSettings, env: NodeJS.ProcessEnv): Promise<number> {
  const name = `${hostname()}:${process.pid}`;
  const say = (line: string) => process.stderr.write(`tcs sweep-worker ${name}: ${line}\n`);
  const freeze = freezeHook(env, say);
  const trialsQueue = queueName();
  const worker = new Worker<QueuedTrial, TrialResult>(
    trialsQueue,
    async (job: Job<QueuedTrial, TrialResult>) => {
      const { id } = job.data;
      // The same spec on other data gives other figures: a worker that does not have the sweep's
      // data (or strategy modules) refuses the trial rather than answer for data it never saw.
      if (trialBasis(job.data) !== job.data.basis)
        throw new Error(
          `the inputs on ${name} differ from the sweep's: the replay data in ${job.data.window.dir ?? '(synthetic)'} or a strategy module in STRATEGIES is not the same here; give every worker the same copy`,
        );
      say(
        `trial ${id} started (attempt ${job.attemptsStarted}${job.stalledCounter > 0 ? `, after ${job.stalledCounter} stall(s)` : ''})`,
      );
      const dir = settings.runsDir === null ? mkdtempSync(join(tmpdir(), 'tcs-trial-')) : join(settings.runsDir, id);
      try {
        const result = await runTrial(job.data, join(dir, 'run'), freeze);
        say(`trial ${id} done`);
        return result;
      } catch (err) {
        // Ctrl-C stopped the run: leave the job to its lock, which expires and puts it back.
        if (err instanceof TrialInterrupted) process.exit(130);
        throw err;
      } finally {
        if (settings.runsDir === null) rmSync(dir, { recursive: true, force: true });
      }
    },
    {
      connection: queueConnection(settings),
      prefix: settings.prefix,
      concurrency: 1,
      lockDuration: settings.lockMs,
      stalledInterval: settings.stalledMs,
      maxStalledCount: settings.maxStalled,
    },
  );
  worker.on('error', (err) => say(`queue error: ${err.message}`));
  await worker.waitUntilReady();
  // At once, mid-trial too: the job's lock expires and another worker takes the trial.
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)
    process.on(signal, () => process.exit(code));
  say(
    `ready: queue ${trialsQueue} (prefix ${settings.prefix}), lock ${settings.lockMs} ms, stalled check every ${settings.stalledMs} ms`,
  );
  return -1;
}

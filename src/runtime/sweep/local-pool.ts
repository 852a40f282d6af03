/**
 * The default executor: `--workers N` processes on this machine (one per core by default), each a
 * `tcs sweep-worker --ipc` child that runs one trial at a time, in-process, and answers over its IPC
 * channel. Processes rather than worker threads: a run holds process-wide state (its Ctrl-C handling,
 * stderr), and a child gets the simulation's larger young generation (SIMULATION_NODE_FLAGS), which
 * only a new process can. A child that dies mid-trial is replaced and the trial run again (twice at
 * most); a trial that fails is the sweep's failure.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { tcsNodeArgs } from '../package-root.js';
import { SIMULATION_NODE_FLAGS } from '../simulate/simulate-process.js';
import type { FromWorker, ToWorker, TrialExecutor } from './trial-executor.js';
import type { TrialResult } from './trial-runner.js';
import type { TrialJob } from './sweep-trials.js';

/** Runs of one trial on a fresh process after its worker died: a crash that repeats is the trial's. */
const MAX_RESTARTS = 2;
/** How long closing waits for a worker to end with its channel before it is killed. */
const CLOSE_BOUND_MS = 10_000;

export function createLocalPool(workers: number, runsDir: string): TrialExecutor {
  const children = new Set<ChildProcess>();
  const pool = { children, closed: false };
  return {
    run: (jobs, onDone) => runAll(jobs, workers, runsDir, pool, onDone),
    // A worker mid-trial (the sweep was stopped) ends with its channel: its result has no one to go to.
    async close() {
      pool.closed = true;
      const exits = [...children].map((child) => new Promise((resolve) => child.once('exit', resolve)));
      for (const child of children) if (child.connected) child.disconnect();
      // Bounded: a worker that does not end with its channel is ended (only ours, by their handles).
      const stuck = setTimeout(() => children.forEach((child) => child.kill('SIGKILL')), CLOSE_BOUND_MS);
      await Promise.all(exits);
      clearTimeout(stuck);
      children.clear();
    },
  };
}

function runAll(
  jobs: readonly TrialJob[],
  workers: number,
  runsDir: string,
  pool: { children: Set<ChildProcess>; closed: boolean },
  onDone: (result: TrialResult) => void,
): Promise<TrialResult[]> {
  const { children } = pool;
  const queue = [...jobs];
  const results: TrialResult[] = [];
  const restarts = new Map<string, number>();
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (err: Error) => {
      failed = true;
      reject(err);
    };
    const next = (child: ChildProcess, current: { job: TrialJob | null }) => {
      const job = queue.shift();
      current.job = job ?? null;
      if (job === undefined) {
        if (results.length === jobs.length) resolve(results);
        return;
      }
      child.send({ type: 'trial', job, out: join(runsDir, job.id) } satisfies ToWorker);
    };
    const start = () => {
      const child = spawnWorker();
      children.add(child);
      const current: { job: TrialJob | null } = { job: null };
      child.on('message', (message: FromWorker) => {
        if (failed) return;
        if (message.type === 'failed') return fail(new Error(`trial ${message.id} failed: ${message.message}`));
        if (message.type === 'done') {
          results.push(message.result);
          onDone(message.result);
        }
        next(child, current);
      });
      child.on('exit', (code, signal) => {
        children.delete(child);
        const job = current.job;
        // Closed (the sweep is over, or stopped by Ctrl-C): a worker that ends is not replaced.
        if (failed || pool.closed) return;
        // Died before taking a trial (a broken install, no memory): with none left, nothing would run.
        if (job === null) {
          if (children.size === 0 && queue.length > 0)
            fail(new Error(`the worker processes exited before taking trials (last: ${signal ?? `exit ${code}`})`));
          return;
        }
        const count = (restarts.get(job.id) ?? 0) + 1;
        if (count > MAX_RESTARTS)
          return fail(
            new Error(`trial ${job.id}: its worker process died ${count} times (${signal ?? `exit ${code}`})`),
          );
        restarts.set(job.id, count);
        queue.unshift(job);
        start();
      });
    };
    for (let i = 0; i < Math.min(workers, jobs.length); i++) start();
    if (jobs.length === 0) resolve(results);
  });
}

function spawnWorker(): ChildProcess {
  // A worker runs simulations: the young generation and no source maps, as `tcs simulate`'s own
  // process (simulate-process.ts says why).
  return spawn(
    process.execPath,
    [...SIMULATION_NODE_FLAGS, ...tcsNodeArgs(['sweep-worker', '--ipc'], { sourceMaps: false })],
    {
      // stdout would carry each run's summary table: the sweep prints its own results.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    },
  );
}

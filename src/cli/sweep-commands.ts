/** `tcs sweep` and `tcs sweep-worker` (src/runtime/sweep/): their entries in the command table. */
import type { Command } from './commands.js';
import { parseSweepArgs, parseSweepWorkerArgs, SWEEP_HELP, SWEEP_WORKER_HELP } from '../runtime/sweep/sweep-options.js';

export const sweepCommands: Command[] = [
  {
    name: 'sweep',
    summary: 'Parameter search: many simulations (grid, random, walk-forward) on local workers or BullMQ',
    help: SWEEP_HELP,
    async run(args) {
      const options = parseSweepArgs(args);
      const { runSweep } = await import('../runtime/sweep/run-sweep.js');
      return runSweep(options);
    },
  },
  {
    name: 'sweep-worker',
    summary: 'Take trials of `tcs sweep --queue` from BullMQ and run them (any number, any machine)',
    help: SWEEP_WORKER_HELP,
    async run(args) {
      const options = parseSweepWorkerArgs(args);
      if (options.ipc) {
        const { runIpcWorker } = await import('../runtime/sweep/ipc-worker.js');
        return runIpcWorker();
      }
      const { runQueueWorker } = await import('../runtime/sweep/queue-worker.js');
      return runQueueWorker(options, process.env);
    },
  },
];

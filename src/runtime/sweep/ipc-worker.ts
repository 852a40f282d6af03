/**
 * `tcs sweep-worker --ipc`: a local worker process of `tcs sweep` (local-pool.ts). It runs the
 * trials its parent sends, one at a time, and answers each; when the parent goes (the sweep ended,
 * or died), the channel closes and so does this process, even mid-trial: its result has no one to go to.
 */
import type { FromWorker, ToWorker } from './trial-executor.js';
import { runTrial, TrialInterrupted } from './trial-runner.js';

export async function runIpcWorker(): Promise<number> {
  if (typeof process.send !== 'function') {
    process.stderr.write('tcs sweep-worker --ipc is started by tcs sweep itself (over an IPC channel)\n');
    return 2;
  }
  const send = (message: FromWorker) => process.send!(message);
  // main.ts unrefs every channel (a supervisor's must not keep a process alive); this one is the
  // worker's whole purpose.
  process.channel?.ref();
  process.on('disconnect', () => process.exit(0));
  process.on('message', (message: ToWorker) => {
    if (message.type !== 'trial') return;
    runTrial(message.job, message.out).then(
      (result) => send({ type: 'done', result }),
      (err: unknown) => {
        // Ctrl-C reached this process too: the sweep is ending, the trial is not a failure.
        if (err instanceof TrialInterrupted) process.exit(130);
        send({ type: 'failed', id: message.job.id, message: (err as Error).message });
      },
    );
  });
  send({ type: 'ready' });
  return -1;
}

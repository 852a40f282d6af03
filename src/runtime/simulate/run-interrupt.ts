/**
 * How a simulation run is interrupted. While the cycle loop runs, the first Ctrl-C (SIGINT) ends it
 * after the current cycle, so the report is still written; a second one ends the process at once.
 * Outside the loop (opening the run, writing the report) SIGINT keeps Node's default: the process
 * ends.
 *
 * In the child process of `tcs simulate` (simulate-process.ts) the parent also interrupts: it passes
 * on a SIGINT sent to it alone as a message, and its channel closes if it dies (even by SIGKILL).
 * Both count as a first Ctrl-C, never a second — a terminal's Ctrl-C reaches both processes, so the
 * child gets the signal and then the message for one key press — and once the run is interrupted,
 * they are ignored. Outside the loop they end the process as a Ctrl-C would there.
 */
let loopRunning = false;
let interrupted = false;
/** Ctrl-Cs counted apart from the parent's interrupts: only a second SIGINT ends the process at once. */
let sigints = 0;

function onSigint(): void {
  sigints += 1;
  // Node runs signal handlers after the I/O of the same turn, so the parent's message for the same
  // key press is often handled first: it must not make this SIGINT look like a second one.
  if (sigints > 1) process.exit(130);
  interrupted = true;
}

/** The cycle loop's view: started, asked whether to stop, ended. */
export const runInterrupt = {
  loopStarted(): void {
    interrupted = false;
    sigints = 0;
    loopRunning = true;
    process.on('SIGINT', onSigint);
  },
  get requested(): boolean {
    return interrupted;
  },
  loopEnded(): void {
    loopRunning = false;
    process.off('SIGINT', onSigint);
  },
};

/** The parent asked the run to stop (its message, or its channel closing). */
export function parentInterrupted(): void {
  if (interrupted) return;
  if (loopRunning) interrupted = true;
  // Not in the loop: what a Ctrl-C does there (no SIGINT listener is installed outside the loop).
  else process.kill(process.pid, 'SIGINT');
}

/**
 * Test-only (not in .env.example): TCS_TEST_SWEEP_FREEZE_AT_CYCLE=N makes a `tcs sweep-worker`
 * stop dead at cycle N of its first trial — it says so on stderr and blocks its thread, holding the
 * job (its lock is no longer renewed), as a process that hangs or is about to be killed mid-trial.
 * The test of a worker SIGKILLed mid-trial needs this to know, without racing the run, that the
 * process it kills really is inside a trial.
 */
import type { CycleHook } from '../simulate/run-simulation.js';

const FREEZE_ENV = 'TCS_TEST_SWEEP_FREEZE_AT_CYCLE';

export function freezeHook(env: NodeJS.ProcessEnv, say: (line: string) => void): CycleHook | undefined {
  const at = Number(env[FREEZE_ENV]?.trim() || Number.NaN);
  if (!Number.isSafeInteger(at) || at < 1) return undefined;
  return (done) => {
    if (done !== at) return;
    say(`frozen mid-trial at cycle ${done} (${FREEZE_ENV})`);
    // Nothing wakes it: only a signal ends the process.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  };
}

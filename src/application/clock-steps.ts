/**
 * Wall-clock steps, seen from inside the process: between two looks, the wall clock (Clock.now)
 * should move as far as the monotonic one; when it moved more than STEP_THRESHOLD_MS further (or
 * less), someone stepped it — NTP correcting a drifted clock, a VM restored from a snapshot, an
 * operator's `date -s`. Nothing here judges a duration on the wall clock any more, so a step changes
 * no halt and no lease; it is still worth telling: it is logged once (a diagnostic line, not an event
 * line), counted and remembered for /health, because every timestamp written after it is off by that
 * much against the ones before.
 */
import type { Clock } from '../ports/clock.js';
import { monotonicNow } from '../ports/clock.js';

/**
 * Gaps smaller than this are slewing, scheduling and rounding, not a step (a tick late by a loaded
 * machine moves both clocks alike, so it is no gap at all).
 */
export const STEP_THRESHOLD_MS = 2_000;

export interface ClockStep {
  /** How far the wall clock jumped beyond the time that passed, ms: negative for a step back. */
  stepMs: number;
  /** Wall time just after the step, epoch ms. */
  at: number;
}

export interface ClockStepWatch {
  /** Compares both clocks since the last look: the step seen now, or null. */
  look(): ClockStep | null;
  /** The last step seen, null before any. */
  last(): ClockStep | null;
}

export function watchClockSteps(clock: Clock, onStep: (step: ClockStep) => void): ClockStepWatch {
  let wall = clock.now();
  let mono = monotonicNow(clock);
  let last: ClockStep | null = null;
  return {
    look() {
      const nowWall = clock.now();
      const nowMono = monotonicNow(clock);
      const gap = nowWall - wall - (nowMono - mono);
      wall = nowWall;
      mono = nowMono;
      if (Math.abs(gap) < STEP_THRESHOLD_MS) return null;
      last = { stepMs: Math.round(gap), at: nowWall };
      onStep(last);
      return last;
    },
    last: () => last,
  };
}

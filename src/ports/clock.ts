/**
 * Clock port: the one source of time outside machines, injectable so tests control time. Two
 * readings, because they answer different questions: `now()` is wall time, for stamping records
 * only — an NTP step or a VM restore moves it by hours in either direction; `monotonic()` only moves
 * forward at the pace of real time, and every duration a process judges (a halt's silence, a lease's
 * age, a deadline) is measured on it, so a step of the wall clock never ends a halt or a lease early.
 */
export interface Clock {
  /** Wall time, epoch ms: for timestamps, never for a duration. */
  now(): number;
  /**
   * Milliseconds from an arbitrary origin that never steps: for durations. Omitted by simulated
   * clocks (xstate's SimulatedClock), whose `now` cannot step and stands in (monotonicNow).
   */
  monotonic?(): number;
}

export const systemClock: Clock = { now: () => Date.now(), monotonic: () => performance.now() };

/** The clock's monotonic reading; a clock without one (a simulated clock) cannot step, so its `now`. */
export function monotonicNow(clock: Clock): number {
  return clock.monotonic ? clock.monotonic() : clock.now();
}

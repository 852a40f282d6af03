/**
 * The time the drawdown window is judged on (issue 30, finding 2): the wall clock's reading when this
 * process started, moved on only by the monotonic clock since. Within a process's life a wall-clock
 * step (an NTP step, a VM restore) cannot age the window's peaks nor the time spent in `reducing`;
 * what is stored keeps wall-like stamps, so the next process can read them (risk.machine.ts says how
 * a restart treats them). It reads the process's one Clock (src/ports/clock.ts); without a monotonic
 * reading (a simulated clock, which never steps) it is the clock itself.
 */
import type { Clock } from '../../ports/clock.js';

export function steadyClock(clock: Clock): Clock {
  const { monotonic } = clock;
  if (monotonic === undefined) return clock;
  const offset = clock.now() - monotonic();
  return { now: () => offset + monotonic(), monotonic };
}

/**
 * What the trading process does with a wall-clock step its safety monitor saw
 * (src/application/clock-steps.ts): one diagnostic line on the logger (never an event line: the spec's
 * events carry their own fields only), for an operator to match the timestamps on either side, and
 * one count on tcs_trading_clock_steps_total for monitoring.
 */
import type { Logger } from 'pino';
import { watchClockSteps } from '../../application/clock-steps.js';
import type { ClockStepWatch } from '../../application/clock-steps.js';
import type { Clock } from '../../ports/clock.js';
import type { TradingMetrics } from '../../adapters/metrics/trading-metrics.js';

export function loggedClockSteps(clock: Clock, log: Logger, metrics: TradingMetrics): ClockStepWatch {
  return watchClockSteps(clock, (step) => {
    metrics.clockSteps.inc({ direction: step.stepMs > 0 ? 'forward' : 'back' });
    log.warn(
      { stepMs: step.stepMs, at: new Date(step.at).toISOString() },
      `the wall clock stepped ${step.stepMs > 0 ? 'forward' : 'back'} by ${Math.abs(step.stepMs)} ms: ` +
        'halts, leases and timers are measured on the monotonic clock and are not affected; ' +
        'timestamps written from now on follow the new wall time',
    );
  });
}

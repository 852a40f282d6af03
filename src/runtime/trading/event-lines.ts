/**
 * The trading process's event lines on stdout (spec section 6): one JSON object per line, `event`
 * first, exactly the spec's fields for its six events, no logger fields (no level, time, pid or
 * hostname). Written through pino's non-blocking destination (SonicBoom); the objects are built
 * here rather than by a pino logger, which would add its own fields.
 */
import { pino } from 'pino';
import type { Side } from '../../domain/orders.js';

export interface EventLines {
  sessionStarted(mode: string, strategies: string[]): void;
  cycleStart(cycle: number, timestamp: string): void;
  signalGenerated(agent: string, symbol: string, direction: number, confidence: number): void;
  riskApproved(symbol: string, size: number, token: string): void;
  orderSubmitted(symbol: string, side: Side, qty: number, mode: string): void;
  cycleEnd(cycle: number, durationMs: number): void;
  /** Further events in the same style (risk_rejected, order_filled, orders_cancelled, …). */
  other(event: string, fields: Record<string, unknown>): void;
  flush(): void;
}

export interface LineSink {
  write(line: string): unknown;
  flushSync?(): void;
}

export function createEventLines(sink: LineSink = pino.destination({ dest: 1, sync: false })): EventLines {
  const write = (fields: Record<string, unknown>) => sink.write(`${JSON.stringify(fields)}\n`);
  return {
    sessionStarted: (mode, strategies) => write({ event: 'session_started', mode, strategies }),
    cycleStart: (cycle, timestamp) => write({ event: 'cycle_start', cycle, timestamp }),
    signalGenerated: (agent, symbol, direction, confidence) =>
      write({ event: 'signal_generated', agent, symbol, direction, confidence }),
    riskApproved: (symbol, size, token) => write({ event: 'risk_approved', symbol, size, token }),
    orderSubmitted: (symbol, side, qty, mode) => write({ event: 'order_submitted', symbol, side, qty, mode }),
    cycleEnd: (cycle, durationMs) => write({ event: 'cycle_end', cycle, duration_ms: durationMs }),
    other: (event, fields) => write({ event, ...fields }),
    flush: () => {
      try {
        sink.flushSync?.();
      } catch {
        // Nothing buffered, or stdout already closed: nothing more can be written anyway.
      }
    },
  };
}

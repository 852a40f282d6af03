/**
 * The event lines on stdout (spec section 6): one JSON object per line, `event` first, exactly the
 * fields of the typed line (src/domain/event-lines.ts), no logger fields (no level, time, pid or
 * hostname). Written through pino's non-blocking destination (SonicBoom); the objects are built by
 * the domain's constructors rather than by a pino logger, which would add its own fields.
 */
import { pino } from 'pino';
import type { EventLine } from '../../domain/event-lines.js';
import type { TradingEvents } from '../../ports/trading-events.js';

export interface LineSink {
  write(line: string): unknown;
  flushSync?(): void;
}

export interface StdoutEventLines extends TradingEvents {
  /** Writes out what is buffered; called once at shutdown. */
  flush(): void;
}

export function createStdoutEventLines(sink: LineSink = pino.destination({ dest: 1, sync: false })): StdoutEventLines {
  return {
    emit: (line: EventLine) => sink.write(`${JSON.stringify(line)}\n`),
    flush: () => {
      try {
        sink.flushSync?.();
      } catch {
        // Nothing buffered, or stdout already closed: nothing more can be written anyway.
      }
    },
  };
}

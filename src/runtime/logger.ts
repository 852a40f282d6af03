/**
 * Diagnostics logger (pino) for both processes. Diagnostics go to stderr so stdout carries only the
 * trading process's event lines; credentials are redacted wherever they might appear.
 */
import { pino } from 'pino';
import type { Logger } from 'pino';

export function createLogger(name: string, level: string): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', '*.apiKey', '*.secret', '*.password'],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 2, sync: false }),
  );
}

/**
 * Clean shutdown on SIGINT/SIGTERM for a process: run `close` once, then exit 0 (or 1 if closing
 * failed). A second signal while closing is ignored rather than cutting the close short. A process
 * started by the supervisor also shuts down when the supervisor disappears (its IPC channel closes).
 */
import type { Logger } from 'pino';

export function exitCleanlyOnSignals(log: Logger, what: string, close: (signal: string) => Promise<void>): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, `${what} stopping`);
    close(signal).then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, `${what} shutdown failed`);
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a second signal must find this handler (and be ignored), not Node's default exit.
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  if (process.channel) process.on('disconnect', () => shutdown('supervisor gone'));
}

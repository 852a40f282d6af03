/**
 * The SQLite store's one clock for audit times (issue 30, finding 8): the host's, as its kernel keeps
 * it. Both processes of a SQLite store run on one host, so their clocks can only disagree when one
 * of them is fed a fake time (libfaketime, a time-shifting sandbox); reading the other process's
 * entries would not tell which one is wrong. The kernel can: it stamps a file's modification time
 * from its own clock, whatever time the process that wrote it believes. So each chained write
 * writes one byte to a private, already-unlinked file beside the database and reads back its mtime,
 * and a writer whose wall clock is further from it than AUDIT_CLOCK_SKEW_MS is refused before the
 * entry is made. Two syscalls, a few microseconds, on writes only.
 *
 * When the file cannot be made or written (a read-only directory; the store's own write will say
 * what is wrong), the check is skipped for that write rather than refusing it: it guards against a
 * skewed clock, and a host clock that cannot be read is not evidence of one.
 */
import { closeSync, fstatSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { clockSkew } from '../../domain/clock-skew.js';
import type { Clock } from '../../ports/clock.js';
import { ClockSkewError } from '../../ports/store-errors.js';

const ONE_BYTE = Buffer.from([0]);

export interface HostClockCheck {
  /** This process's wall clock (epoch ms), once it is known to be within the bound of the host's; throws ClockSkewError. */
  check(): number;
  close(): void;
}

export function hostClockCheck(path: string, clock: Clock): HostClockCheck {
  let fd: number | null = null;
  const open = (): number => {
    const file = join(dirname(path), `.${basename(path)}-clock-${randomUUID()}`);
    const opened = openSync(file, 'wx+', 0o600);
    // Unlinked at once: nothing is left behind, whatever ends the process.
    unlinkSync(file);
    return opened;
  };
  const hostNow = (): number | null => {
    try {
      fd ??= open();
      writeSync(fd, ONE_BYTE, 0, 1, 0);
      return fstatSync(fd).mtimeMs;
    } catch {
      return null;
    }
  };
  return {
    check() {
      const host = hostNow();
      const now = clock.now();
      if (host === null) return now;
      const why = clockSkew(now, host, "this host's, as its kernel stamps files");
      if (why !== null) throw new ClockSkewError(`sqlite:${path}: ${why}`, host);
      return now;
    },
    close() {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}

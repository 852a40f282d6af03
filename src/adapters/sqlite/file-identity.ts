/**
 * Notices the database file being deleted or replaced under an open connection. SQLite keeps
 * working on the inode it opened: after `rm var/tcs.db*` (or a restore that renames another file into
 * place) this process would go on reading and writing a file nobody else sees, while a restarted
 * process works on the new one. So the path is stat'ed and compared with the file opened; a mismatch
 * is a StoreFaultError 'replaced'.
 *
 * Writes check now, before every try: nothing is ever written into a file nobody else sees. Reads
 * trust a check that succeeded at most READ_CHECK_MAX_AGE_MS ago (a stat otherwise): a stat per read
 * was a measurable share of a GET /control/status, and a read served from a file deleted a moment
 * ago says what the store said a moment ago. The staleness bound: from READ_CHECK_MAX_AGE_MS after
 * a deletion or replacement, every read reports it. A failed check is never cached.
 */
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../ports/clock.js';
import { StoreFaultError } from '../../ports/store-errors.js';

/** How old a successful check a read may rely on: the longest a read can miss a deletion. */
export const READ_CHECK_MAX_AGE_MS = 100;

export interface FileIdentity {
  /** Stats the path now; throws StoreFaultError 'replaced' when it no longer names the file opened. */
  assertSame(): void;
  /** The same, unless a check succeeded less than READ_CHECK_MAX_AGE_MS ago. */
  assertRecent(): void;
}

/** For a file that no other process opens (a simulation's run store): nothing to check. */
export const UNCHECKED_FILE: FileIdentity = { assertSame() {}, assertRecent() {} };

/** `clock` measures the age of the last check (monotonic by default; tests inject one). */
export function fileIdentity(
  path: string,
  clock: Clock = { now: () => performance.now() },
  maxAgeMs = READ_CHECK_MAX_AGE_MS,
): FileIdentity {
  const opened = statSync(path);
  let checkedAt = clock.now();
  const check = () => {
    checkedAt = Number.NEGATIVE_INFINITY; // a check that throws leaves none to rely on
    let now;
    try {
      now = statSync(path);
    } catch {
      throw new StoreFaultError(
        'replaced',
        `the database file ${path} was deleted while this process had it open: nothing is written to it any more`,
      );
    }
    if (now.ino !== opened.ino || now.dev !== opened.dev) {
      throw new StoreFaultError(
        'replaced',
        `the database file ${path} was replaced by another file while this process had it open`,
      );
    }
    checkedAt = clock.now();
  };
  return {
    assertSame: check,
    assertRecent() {
      const age = clock.now() - checkedAt;
      // A clock that went backwards (age < 0) proves nothing: check.
      if (age >= 0 && age < maxAgeMs) return;
      check();
    },
  };
}

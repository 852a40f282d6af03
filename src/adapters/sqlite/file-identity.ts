/**
 * Notices the database file being deleted or replaced under an open connection. SQLite keeps
 * working on the inode it opened: after `rm var/tcs.db*` (or a restore that renames another file into
 * place) this process would go on reading and writing a file nobody else sees, while a restarted
 * process works on the new one. So the path is stat'ed before the operations that matter (a few µs)
 * and compared with the file opened; a mismatch is a StoreFaultError 'replaced'.
 */
import { statSync } from 'node:fs';
import { StoreFaultError } from '../../ports/store-errors.js';

export interface FileIdentity {
  /** Throws StoreFaultError 'replaced' when the path no longer names the file that was opened. */
  assertSame(): void;
}

export function fileIdentity(path: string): FileIdentity {
  const opened = statSync(path);
  return {
    assertSame() {
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
    },
  };
}

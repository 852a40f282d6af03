/**
 * The one way the SQLite stores reach the file: every call goes through the file check
 * (file-identity.ts) and the lock wait (lock-wait.ts). A write checks that the path still names the
 * file opened before each try, so nothing is written into a file nobody else sees; a read relies on
 * a recent check. Both wait for another process's lock from timers, never inside the call; writes
 * in the order they were made. Reads are not queued behind a waiting write: in WAL they never need
 * the lock, and they answer with the store as it is (the waiting write has not happened yet).
 * Writes that keep no order with the others (`writeAtOnce`: the lease's renewals, the write probe)
 * are not queued either: a flood of commands waiting for the API's lock once held the renewals back
 * until the trader halted on `lease_unconfirmed` (issue 30, finding 5).
 */
import type { FileIdentity } from './file-identity.js';
import type { LockWait } from './lock-wait.js';

export interface StoreAccess {
  /** `op` reads only (one statement, or a read transaction). */
  read<T>(op: () => T): Promise<T>;
  /** `op` writes: one statement, or one whole transaction function; after every earlier write of this connection. */
  write<T>(op: () => T): Promise<T>;
  /**
   * `op` writes now, not after the earlier writes still waiting for the lock: only for writes whose
   * order with the others does not matter (each stands alone, stamped when it runs).
   */
  writeAtOnce<T>(op: () => T): Promise<T>;
}

export function storeAccess(file: FileIdentity, lock: LockWait): StoreAccess {
  return {
    read: (op) =>
      lock.now(() => {
        file.assertRecent();
        return op();
      }),
    write: (op) =>
      lock.inOrder(() => {
        file.assertSame();
        return op();
      }),
    writeAtOnce: (op) =>
      lock.now(() => {
        file.assertSame();
        return op();
      }),
  };
}

/**
 * A run store's access while its audit appends go through a worker thread (threaded-audit.ts): each
 * call first waits until the worker has committed every entry appended before it, so a read sees
 * them and the connection's own chained write follows them; after a write, the head is read again.
 */
export function afterAuditCommits(inner: StoreAccess, audit: { commitSync(): void; reloadHead(): void }): StoreAccess {
  const afterCommits =
    <T>(op: () => T) =>
    (): T => {
      audit.commitSync();
      try {
        return op();
      } finally {
        audit.reloadHead();
      }
    };
  return {
    read: (op) =>
      inner.read(() => {
        audit.commitSync();
        return op();
      }),
    write: (op) => inner.write(afterCommits(op)),
    writeAtOnce: (op) => inner.writeAtOnce(afterCommits(op)),
  };
}

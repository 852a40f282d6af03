/**
 * Another OS process holding a SQLite file's write lock (fixtures/lock-holder.ts), for the tests of
 * what the store does meanwhile. `release` lets the lock go and waits until the holder says so;
 * `stop` ends the process by its pid, whatever state it is in (for afterEach). `lockStorm` takes the
 * lock again and again instead (fixtures/lock-storm.ts) until it is stopped.
 */
import { fileURLToPath } from 'node:url';
import { startNode } from '../../support/processes.js';

const HOLDER = fileURLToPath(new URL('./fixtures/lock-holder.ts', import.meta.url));
const STORM = fileURLToPath(new URL('./fixtures/lock-storm.ts', import.meta.url));

/** Bound on the holder starting (tsx compiles it first) and on it answering "release". */
const HOLDER_BOUND_MS = 30_000;

export interface LockHolder {
  pid: number;
  release(): Promise<void>;
  stop(): Promise<void>;
}

export async function holdWriteLock(path: string): Promise<LockHolder> {
  const proc = startNode(['--import', 'tsx', HOLDER, path], {});
  try {
    await proc.waitFor(/^locked$/m, HOLDER_BOUND_MS);
  } catch (err) {
    await proc.stop('SIGKILL');
    throw err;
  }
  return {
    pid: proc.child.pid!,
    async release() {
      proc.child.stdin.write('release\n');
      await proc.waitFor(/^released$/m, HOLDER_BOUND_MS);
      await proc.exited;
    },
    stop: () => proc.stop('SIGKILL'),
  };
}

/** Another OS process taking the write lock for `holdMs`, letting it go for `gapMs`, over and over. */
export async function lockStorm(path: string, holdMs: number, gapMs: number): Promise<LockHolder> {
  const proc = startNode(['--import', 'tsx', STORM, path, String(holdMs), String(gapMs)], {});
  try {
    await proc.waitFor(/^storming$/m, HOLDER_BOUND_MS);
  } catch (err) {
    await proc.stop('SIGKILL');
    throw err;
  }
  return {
    pid: proc.child.pid!,
    async release() {
      proc.child.stdin.write('stop\n');
      await proc.waitFor(/^stopped$/m, HOLDER_BOUND_MS);
      await proc.exited;
    },
    stop: () => proc.stop('SIGKILL'),
  };
}

/**
 * A wall clock that a test can step on ONE child process: Debian's libfaketime preloaded into it,
 * reading its offset from a file on every call (FAKETIME_NO_CACHE), with the monotonic clock left
 * real (FAKETIME_DONT_FAKE_MONOTONIC) — as an NTP step or a VM restore moves the wall clock and
 * nothing else. `step` rewrites the offset; the process sees it at its next reading of the time.
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

export interface SteppableClock {
  /** The environment that puts a child process on this clock. */
  env: Record<string, string>;
  /** Sets the wall clock's offset from the real one, in seconds (negative: back). */
  setOffset(seconds: number): void;
}

export function steppableClock(dir: string): SteppableClock {
  if (!existsSync(LIBFAKETIME)) throw new Error(`${LIBFAKETIME} is missing: apt-get install faketime`);
  const file = join(dir, 'faketime-offset');
  // Written aside and renamed into place: the process reads the file at every call, and must never
  // read it half written (an empty file is an offset of zero: a step back and forth).
  const setOffset = (seconds: number) => {
    writeFileSync(`${file}.next`, `${seconds >= 0 ? '+' : ''}${seconds}\n`);
    renameSync(`${file}.next`, file);
  };
  setOffset(0);
  return {
    env: {
      LD_PRELOAD: LIBFAKETIME,
      FAKETIME_TIMESTAMP_FILE: file,
      FAKETIME_NO_CACHE: '1',
      FAKETIME_DONT_FAKE_MONOTONIC: '1',
    },
    setOffset,
  };
}

/**
 * The account publisher's serializer: runs never overlap, calls during a run share one more run
 * after it, and every caller is answered by a run that started after its call.
 */
import { describe, expect, it } from 'vitest';
import { latestWins } from '../../src/application/latest-wins.js';

/** A run the test finishes by hand, recording what state it read. */
function handRuns() {
  let state = 0;
  const read: number[] = [];
  const finish: Array<() => void> = [];
  let running = 0;
  let overlapped = false;
  const run = () =>
    new Promise<void>((resolve) => {
      running++;
      overlapped ||= running > 1;
      read.push(state);
      finish.push(() => {
        running--;
        resolve();
      });
    });
  return {
    run,
    read,
    set: (s: number) => (state = s),
    finishNext: async () => {
      finish.shift()!();
      await new Promise((r) => setImmediate(r));
    },
    overlapped: () => overlapped,
  };
}

describe('latest wins', () => {
  it('runs one at a time; calls during a run share one more run that reads the newer state', async () => {
    const h = handRuns();
    const failures: unknown[] = [];
    const publish = latestWins(h.run, (err) => failures.push(err));
    const first = publish.now();
    h.set(1);
    publish.soon();
    const second = publish.now();
    h.set(2);
    expect(h.read).toEqual([0]); // nothing overlaps the run in flight
    await h.finishNext();
    await first;
    expect(h.read).toEqual([0, 2]); // one more run, after both calls, reading the latest state
    await h.finishNext();
    await second;
    expect(h.read).toEqual([0, 2]);
    expect(h.overlapped()).toBe(false);
    expect(failures).toEqual([]);
  });

  it('a failed run is its waiting caller’s error and a soon caller’s report; the next call runs again', async () => {
    let fail = true;
    const failures: unknown[] = [];
    const publish = latestWins(
      async () => {
        if (fail) throw new Error('store down');
      },
      (err) => failures.push(err),
    );
    await expect(publish.now()).rejects.toThrow('store down');
    publish.soon();
    await new Promise((r) => setImmediate(r));
    expect(failures).toHaveLength(1);
    fail = false;
    await expect(publish.now()).resolves.toBeUndefined();
  });
});

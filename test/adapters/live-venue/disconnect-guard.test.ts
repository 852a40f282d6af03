/**
 * The held connection of a held dead-man's switch (Bybit's DCP): the first connection or the start
 * fails; a connection that ends is down at once (dated by its first failure, not by later failed
 * attempts) and is made again after a backoff doubling from 1 s up to the cap; up again clears it;
 * stop() ends the reconnecting.
 */
import { describe, expect, it } from 'vitest';
import { DisconnectGuard } from '../../../src/adapters/live-venue/disconnect-guard.js';

/** A connection the test ends by hand. */
function connection() {
  let end!: (err: Error) => void;
  const closed = new Promise<unknown>((_, reject) => (end = reject));
  return { closed, end };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function rig(attempts: Array<'fail' | ReturnType<typeof connection>>) {
  let now = 0;
  const sleeps: number[] = [];
  const reports: string[] = [];
  let wake: (() => void) | null = null;
  const guard = new DisconnectGuard({
    connect: async () => {
      const next = attempts.shift();
      if (!next || next === 'fail') throw new Error('refused');
      return { closed: next.closed };
    },
    monotonic: () => now,
    sleep: (ms) => {
      sleeps.push(ms);
      return new Promise<void>((r) => (wake = r));
    },
    maxBackoffMs: 4_000,
    report: (c) => reports.push(c.up ? 'up' : `down: ${c.reason}`),
  });
  return {
    guard,
    sleeps,
    reports,
    advance: (ms: number) => (now += ms),
    /** Ends the current backoff wait. */
    async wakeUp() {
      await flush();
      const w = wake;
      wake = null;
      w?.();
      await flush();
    },
  };
}

describe('DisconnectGuard', () => {
  it('fails the start when the first connection cannot be made', async () => {
    const r = rig(['fail']);
    await expect(r.guard.open()).rejects.toThrow('refused');
    expect(r.guard.down()).toMatchObject({ reason: 'not connected yet' });
  });

  it('is down from the first failure, reconnects after a doubling backoff up to the cap, and is up again', async () => {
    const first = connection();
    const second = connection();
    const r = rig([first, 'fail', 'fail', 'fail', 'fail', second]);
    await r.guard.open();
    expect(r.guard.down()).toBeNull();
    r.advance(5_000);
    first.end(new Error('connection closed by remote server'));
    await flush();
    r.advance(3_000);
    expect(r.guard.down()).toEqual({ forMs: 3_000, reason: 'connection closed by remote server' });
    for (let i = 0; i < 4; i++) {
      r.advance(1_000);
      await r.wakeUp();
    }
    // Still down since the first failure, the last reason told.
    expect(r.guard.down()).toEqual({ forMs: 7_000, reason: 'refused' });
    await r.wakeUp();
    expect(r.guard.down()).toBeNull();
    expect(r.sleeps).toEqual([1_000, 2_000, 4_000, 4_000, 4_000]);
    expect(r.reports).toEqual(['up', 'down: connection closed by remote server', 'up']);
    // Up again resets the backoff.
    second.end(new Error('dropped'));
    await flush();
    expect(r.sleeps).toHaveLength(6);
    expect(r.sleeps.at(-1)).toBe(1_000);
  });

  it('reconnects no more once stopped', async () => {
    const first = connection();
    const r = rig([first, connection()]);
    await r.guard.open();
    r.guard.stop();
    first.end(new Error('closed by user'));
    await r.guard.ended;
    expect(r.sleeps).toEqual([]);
  });
});

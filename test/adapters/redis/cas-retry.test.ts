/**
 * The Redis adapter's compare-and-set retry (issue 18, finding 2's second half): an audit append
 * that keeps losing the race for the chain head to other writers is never given up while the store
 * answers — `cancel_all` jobs failed with "audit append: gave up after 50 attempts" and their
 * `orders_cancelled` entries went missing. A caller with a deadline of its own (a control change)
 * gets ControlContentionError when it passes, never an endless wait. The mutex writers of one process
 * share runs tasks one at a time; a kill's write goes ahead of those still waiting (found in review:
 * it queued behind this process's pauses and appends).
 */
import { describe, expect, it } from 'vitest';
import { Mutex, retryCas } from '../../../src/adapters/redis/cas-retry.js';
import { ControlContentionError } from '../../../src/ports/store-errors.js';

describe('retryCas', () => {
  it('keeps trying a CAS lost far more than 50 times, as long as each attempt gets an answer', async () => {
    let lost = 0;
    const result = await retryCas('audit append', async (n) => (n < 120 ? (lost++, undefined) : 'appended'));
    expect(result).toBe('appended');
    expect(lost).toBe(120);
  });

  it('a failing attempt (the store not answering) ends it with that failure', async () => {
    await expect(
      retryCas('audit append', async (n) => {
        if (n === 3) throw new Error('Command timed out');
        return undefined;
      }),
    ).rejects.toThrow('Command timed out');
  });

  it('with a deadline, gives up with ControlContentionError once it passed', async () => {
    const attempt = () => Promise.resolve(undefined);
    await expect(retryCas('control write at epoch 3', attempt, 30)).rejects.toBeInstanceOf(ControlContentionError);
  });
});

describe('Mutex', () => {
  it('runs tasks one at a time in call order; a task run first waits only for the running one', async () => {
    const mutex = new Mutex();
    const order: string[] = [];
    let release: () => void = () => {};
    const running = mutex.run(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      order.push('running');
    });
    const waiting = ['pause-1', 'append-2', 'pause-3'].map((name) => mutex.run(async () => void order.push(name)));
    const kill = mutex.run(async () => void order.push('kill'), true);
    const failing = mutex.run(() => Promise.reject(new Error('boom')));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    release();
    await Promise.all([running, ...waiting, kill, failing.catch(() => {})]);
    expect(order).toEqual(['running', 'kill', 'pause-1', 'append-2', 'pause-3']);
    await expect(failing).rejects.toThrow('boom');
    expect(await mutex.run(async () => 'after a failure')).toBe('after a failure');
  });
});

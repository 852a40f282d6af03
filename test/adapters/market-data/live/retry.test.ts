/**
 * withRetry stops once its caller has closed: no further attempt, no further wait.
 */
import { describe, expect, it } from 'vitest';
import { withRetry } from '../../../../src/adapters/market-data/live/retry.js';

const policy = { baseMs: 10, maxMs: 100, deadline: Number.MAX_SAFE_INTEGER, attempts: 5 };

describe('withRetry', () => {
  it('retries a retryable error until it succeeds', async () => {
    let calls = 0;
    const run = () => (++calls < 3 ? Promise.reject(new Error('net')) : Promise.resolve('ok'));
    await expect(withRetry(run, policy, { retryable: () => true, sleep: async () => {} })).resolves.toBe('ok');
    expect(calls).toBe(3);
  });

  it('neither waits nor asks again once aborted, and sends nothing when aborted before', async () => {
    let calls = 0;
    let closed = false;
    const waits: number[] = [];
    const hooks = {
      retryable: () => true,
      aborted: () => closed,
      sleep: async (ms: number) => {
        waits.push(ms);
        closed = true;
      },
    };
    const run = () => (++calls, Promise.reject(new Error('net')));
    await expect(withRetry(run, policy, hooks)).rejects.toThrow('net');
    expect([calls, waits.length]).toEqual([1, 1]);
    await expect(withRetry(run, policy, hooks)).rejects.toThrow(/closed/);
    expect(calls).toBe(1);
  });
});

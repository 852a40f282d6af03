/**
 * The Redis adapter's compare-and-set retry (issue 18, finding 2's second half): an audit append
 * that keeps losing the race for the chain head to other writers is never given up while the store
 * answers — `cancel_all` jobs failed with "audit append: gave up after 50 attempts" and their
 * `orders_cancelled` entries went missing. A caller with a deadline of its own (a control change)
 * gets ControlContentionError when it passes, never an endless wait.
 */
import { describe, expect, it } from 'vitest';
import { retryCas } from '../../../src/adapters/redis/cas-retry.js';
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

// Backoff between closes of one symbol (src/domain/close-backoff.ts): doubling from 1 s up to a
// minute while the position stays held, forgotten once it is flat.
import { describe, expect, it } from 'vitest';
import { closeBackoffLeft, nextCloseAttempts } from '../../src/domain/close-backoff.js';

const HELD = new Set(['BTCUSDT']);

describe('close backoff', () => {
  it('lets the first close through, then waits 1 s, 2 s, 4 s … up to 60 s while the position stays held', () => {
    let attempts = nextCloseAttempts(new Map(), HELD, [], 0);
    expect(closeBackoffLeft(attempts, 'BTCUSDT', 0)).toBeNull();
    let now = 0;
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) {
      attempts = nextCloseAttempts(attempts, HELD, ['BTCUSDT'], now);
      const wait = closeBackoffLeft(attempts, 'BTCUSDT', now)!;
      waits.push(wait);
      expect(closeBackoffLeft(attempts, 'BTCUSDT', now + wait - 1)).toBe(1);
      now += wait;
      expect(closeBackoffLeft(attempts, 'BTCUSDT', now)).toBeNull();
    }
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000]);
  });

  it('forgets a symbol once the account is flat in it, and keeps other symbols apart', () => {
    let attempts = nextCloseAttempts(new Map(), new Set(['BTCUSDT', 'ETHUSDT']), ['BTCUSDT', 'ETHUSDT'], 0);
    attempts = nextCloseAttempts(attempts, new Set(['BTCUSDT', 'ETHUSDT']), ['BTCUSDT'], 1_000);
    expect(closeBackoffLeft(attempts, 'BTCUSDT', 1_500)).toBe(1_500);
    expect(closeBackoffLeft(attempts, 'ETHUSDT', 500)).toBe(500);
    attempts = nextCloseAttempts(attempts, new Set(['ETHUSDT']), [], 1_600);
    expect(closeBackoffLeft(attempts, 'BTCUSDT', 1_600)).toBeNull();
    expect(attempts.has('BTCUSDT')).toBe(false);
  });
});

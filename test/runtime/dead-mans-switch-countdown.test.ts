/**
 * The dead-man's switch countdown the trading process arms: three cycles, at least 10 s, capped at
 * what the exchange takes (OKX's cancel-all-after: 120 s), and none at all when the cap could run
 * out between two cycles (it would cancel our orders while the process lives).
 */
import { describe, expect, it } from 'vitest';
import { countdownMsFor } from '../../src/runtime/trading/live-execution.js';

describe('countdownMsFor', () => {
  it('is three cycles, at least 10 s, without a cap (Binance)', () => {
    expect(countdownMsFor(60_000)).toBe(180_000);
    expect(countdownMsFor(1_000)).toBe(10_000);
    expect(countdownMsFor(300_000)).toBe(900_000);
  });

  it('is capped at the exchange’s longest while a cycle and 10 s fit in it', () => {
    expect(countdownMsFor(30_000, 120_000)).toBe(90_000);
    expect(countdownMsFor(60_000, 120_000)).toBe(120_000);
    expect(countdownMsFor(110_000, 120_000)).toBe(120_000);
  });

  it('is none when the capped countdown could run out between two cycles', () => {
    expect(countdownMsFor(111_000, 120_000)).toBeNull();
    expect(countdownMsFor(300_000, 120_000)).toBeNull();
  });
});

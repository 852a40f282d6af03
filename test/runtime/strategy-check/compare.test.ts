/** The comparison the check rests on: what counts as the same answer, within a tolerance, and the first bar that differs. */
import { describe, expect, it } from 'vitest';
import { firstDifference, sameOutcome } from '../../../src/runtime/strategy-check/compare.js';
import type { Outcome } from '../../../src/runtime/strategy-check/compare.js';
import type { SignalTarget } from '../../../src/domain/signal.js';

const long = (confidence: number, extra: { target?: SignalTarget } = {}): Outcome => ({
  kind: 'signal',
  direction: 1,
  confidence,
  ...extra,
});

describe('sameOutcome', () => {
  it('holds two signals equal when their confidences differ by no more than the tolerance', () => {
    expect(sameOutcome(long(0.5), long(0.5 + 5e-5), 1e-4)).toBe(true);
    expect(sameOutcome(long(0.5), long(0.5 + 2e-4), 1e-4)).toBe(false);
  });

  it('tells a different direction, a missing signal and an error apart from a signal', () => {
    expect(sameOutcome(long(1), { kind: 'signal', direction: -1, confidence: 1 }, 1e-4)).toBe(false);
    expect(sameOutcome(long(1), { kind: 'none' }, 1e-4)).toBe(false);
    expect(sameOutcome({ kind: 'none' }, { kind: 'none' }, 1e-4)).toBe(true);
    expect(sameOutcome({ kind: 'error', message: 'x' }, { kind: 'error', message: 'x' }, 1e-4)).toBe(true);
    expect(sameOutcome({ kind: 'error', message: 'x' }, { kind: 'none' }, 1e-4)).toBe(false);
  });

  it('compares a target relative to its size, and a target against none as different', () => {
    const a = long(1, { target: { notional: 1000 } });
    expect(sameOutcome(a, long(1, { target: { notional: 1000.05 } }), 1e-4)).toBe(true);
    expect(sameOutcome(a, long(1, { target: { notional: 1001 } }), 1e-4)).toBe(false);
    expect(sameOutcome(a, long(1, { target: { qty: 1000 } }), 1e-4)).toBe(false);
    expect(sameOutcome(a, long(1), 1e-4)).toBe(false);
  });
});

describe('firstDifference', () => {
  const bars = (answers: Outcome[]) => answers.map((outcome, i) => ({ cycle: i, symbol: 'BTCUSDT', outcome }));

  it('returns the earliest cycle whose answers differ, with both answers', () => {
    const a = bars([{ kind: 'none' }, long(0.4), long(0.9), long(0.1)]);
    const b = bars([{ kind: 'none' }, long(0.4), { kind: 'none' }, long(0.2)]);
    expect(firstDifference(a, b, 1e-4)).toEqual({ cycle: 2, symbol: 'BTCUSDT', a: long(0.9), b: { kind: 'none' } });
  });

  it('returns null when every answer both runs gave agrees', () => {
    expect(firstDifference(bars([long(0.4), { kind: 'none' }]), bars([long(0.40001), { kind: 'none' }]), 1e-4)).toBe(
      null,
    );
  });

  it('compares only the cycles and symbols both runs answered', () => {
    const a = bars([long(0.4), long(0.5), long(0.6)]);
    const b = bars([long(0.4), long(0.5), long(0.6)]).slice(1);
    b.push({ cycle: 7, symbol: 'ETHUSDT', outcome: { kind: 'none' } });
    expect(firstDifference(a, b, 1e-4)).toBe(null);
  });
});

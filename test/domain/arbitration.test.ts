// Weighted arbitration: scores, eligibility reasons, one per symbol, maxOrders, the documented
// tie-break, and independence from the order signals arrive in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbitrate } from '../../src/domain/arbitration.js';
import type { Signal } from '../../src/domain/signal.js';

const sig = (agent: string, symbol: string, direction: number, confidence: number): Signal => ({
  agent,
  symbol,
  direction,
  confidence,
});

describe('arbitrate', () => {
  it('selects the highest weight × confidence and explains every other signal', () => {
    const signals = [
      sig('momentum', 'BTCUSDT', 1, 0.6),
      sig('funding', 'ETHUSDT', -1, 0.5),
      sig('momentum', 'SOLUSDT', 0, 0.9),
      sig('funding', 'SOLUSDT', 1, 0.05),
    ];
    const result = arbitrate(signals, { weights: { funding: 2 }, minConfidence: 0.1 });
    // Every symbol's best signal is selected, directional first, then exits; the allocator spends the
    // one-order budget on those that turn into orders (issue 19: a cross dropped here never came back).
    expect(result.selected).toEqual([signals[1], signals[0], signals[2]]);
    expect(result.maxOrders).toBe(1);
    expect(
      result.ranked.map((r) => [r.signal.agent, r.signal.symbol, r.weight, r.score, r.selected, r.reason]),
    ).toEqual([
      ['funding', 'ETHUSDT', 2, 1, true, 'SELECTED'],
      ['momentum', 'SOLUSDT', 1, 0.9, true, 'EXIT'],
      ['momentum', 'BTCUSDT', 1, 0.6, true, 'SELECTED'],
      ['funding', 'SOLUSDT', 2, 0.1, false, 'BELOW_MIN_CONFIDENCE'],
    ]);
  });

  it('a directional signal for a symbol beats an exit for it, whatever the scores', () => {
    const signals = [sig('funding', 'BTCUSDT', 0, 1), sig('momentum', 'BTCUSDT', 1, 0.3)];
    const result = arbitrate(signals, { maxOrders: 1 });
    expect(result.selected).toEqual([signals[1]]);
    expect(result.ranked.find((r) => r.signal.agent === 'funding')?.reason).toBe('SYMBOL_ALREADY_SELECTED');
    // An agent weighted 0 is switched off: its exits too.
    expect(arbitrate([signals[0]!], { weights: { funding: 0 } }).ranked[0]?.reason).toBe('ZERO_SCORE');
  });

  it('selects at most one signal per symbol, even with room for more orders', () => {
    const signals = [sig('a', 'BTCUSDT', 1, 0.9), sig('b', 'BTCUSDT', -1, 0.8), sig('c', 'ETHUSDT', 1, 0.3)];
    const result = arbitrate(signals, { maxOrders: 3 });
    expect(result.selected).toEqual([signals[0], signals[2]]);
    expect(result.ranked.find((r) => r.signal.agent === 'b')?.reason).toBe('SYMBOL_ALREADY_SELECTED');
  });

  it('defaults: weight 1, minConfidence 0.1, one order', () => {
    const signals = [sig('a', 'BTCUSDT', 1, 0.09), sig('b', 'ETHUSDT', 1, 0.1), sig('c', 'SOLUSDT', -1, 0.2)];
    const result = arbitrate(signals);
    expect(result.selected).toEqual([signals[2], signals[1]]);
    expect(result.maxOrders).toBe(1);
    expect(result.ranked.map((r) => r.reason)).toEqual(['SELECTED', 'SELECTED', 'BELOW_MIN_CONFIDENCE']);
    expect(result.ranked.every((r) => r.weight === 1)).toBe(true);
  });

  it('selects exits only for what the agent holds: others are NOTHING_TO_EXIT or EXIT_NOT_OWNER (issue 19)', () => {
    const signals = [sig('funding', 'BTCUSDT', 0, 1), sig('funding', 'ETHUSDT', 0, 1), sig('funding', 'SOLUSDT', 0, 1)];
    // BTC held by funding's own trade, ETH by momentum's, SOL not at all.
    const holdings = new Map([
      ['BTCUSDT', 'funding'],
      ['ETHUSDT', 'momentum'],
    ]);
    const result = arbitrate(signals, {}, holdings);
    expect(result.selected).toEqual([signals[0]]);
    expect(result.ranked.map((r) => [r.signal.symbol, r.selected, r.reason])).toEqual([
      ['BTCUSDT', true, 'EXIT'],
      ['ETHUSDT', false, 'EXIT_NOT_OWNER'],
      ['SOLUSDT', false, 'NOTHING_TO_EXIT'],
    ]);
  });

  it('refuses a direction that is not an integer as INVALID_SIGNAL (the spec says integer)', () => {
    expect(arbitrate([sig('a', 'BTCUSDT', 0.5, 0.9)]).ranked[0]?.reason).toBe('INVALID_SIGNAL');
  });

  it('switches an agent off with weight 0', () => {
    const result = arbitrate([sig('a', 'BTCUSDT', 1, 0.9)], { weights: { a: 0 } });
    expect(result.selected).toEqual([]);
    expect(result.ranked[0]).toMatchObject({ score: 0, reason: 'ZERO_SCORE' });
  });

  it('marks malformed signals invalid with a finite score', () => {
    const bad = [
      sig('a', 'X', 1, Number.NaN),
      sig('b', 'Y', Number.POSITIVE_INFINITY, 0.5),
      sig('c', 'Z', 1, 1.5),
      sig('d', 'W', 1, -0.1),
    ];
    const result = arbitrate(bad);
    expect(result.selected).toEqual([]);
    for (const r of result.ranked) expect(r).toMatchObject({ score: 0, reason: 'INVALID_SIGNAL', selected: false });
  });

  it('does not take a weight from Object.prototype for an agent called "constructor"', () => {
    expect(arbitrate([sig('constructor', 'BTCUSDT', 1, 0.5)]).ranked[0]).toMatchObject({ weight: 1, score: 0.5 });
  });

  it('maxOrders 0 is handed to the allocator, which then makes no order', () => {
    expect(arbitrate([sig('a', 'BTCUSDT', 1, 0.9)], { maxOrders: 0 }).maxOrders).toBe(0);
  });

  describe('tie-break', () => {
    it('equal score: higher confidence first', () => {
      // 2 × 0.3 = 0.6 = 1 × 0.6
      const result = arbitrate([sig('heavy', 'BTCUSDT', 1, 0.3), sig('light', 'ETHUSDT', 1, 0.6)], {
        weights: { heavy: 2 },
      });
      expect(result.selected[0]?.agent).toBe('light');
    });

    it('equal score and confidence: agent name ascending', () => {
      const result = arbitrate([sig('zeta', 'BTCUSDT', 1, 0.5), sig('alpha', 'ETHUSDT', 1, 0.5)]);
      expect(result.selected[0]?.agent).toBe('alpha');
    });

    it('same agent: symbol ascending', () => {
      const result = arbitrate([sig('a', 'SOLUSDT', 1, 0.5), sig('a', 'BTCUSDT', -1, 0.5)]);
      expect(result.selected[0]?.symbol).toBe('BTCUSDT');
    });

    it('compares names by code unit, not locale ("B" before "a")', () => {
      const result = arbitrate([sig('a', 'BTCUSDT', 1, 0.5), sig('B', 'ETHUSDT', 1, 0.5)]);
      expect(result.selected[0]?.agent).toBe('B');
    });
  });

  it.each([
    [{ weights: { a: -1 } }],
    [{ weights: { a: Number.NaN } }],
    [{ minConfidence: 1.5 }],
    [{ maxOrders: -1 }],
    [{ maxOrders: 1.5 }],
  ])('refuses bad options %j', (options) => {
    expect(() => arbitrate([], options)).toThrow(RangeError);
  });

  it('is deterministic under any permutation of the signals', () => {
    const signalArb = fc.record({
      agent: fc.constantFrom('a', 'b', 'c'),
      symbol: fc.constantFrom('BTCUSDT', 'ETHUSDT', 'SOLUSDT'),
      direction: fc.constantFrom(-1, 0, 1),
      // A few discrete values make ties common, which is where order dependence would show.
      confidence: fc.oneof(
        fc.constantFrom(0, 0.05, 0.25, 0.5, 1, Number.NaN),
        fc.double({ min: 0, max: 1, noNaN: true }),
      ),
    });
    fc.assert(
      fc.property(
        fc
          .array(signalArb, { maxLength: 12 })
          .chain((signals) =>
            fc.tuple(
              fc.constant(signals),
              fc.shuffledSubarray(signals, { minLength: signals.length, maxLength: signals.length }),
            ),
          ),
        fc.record({ a: fc.constantFrom(0, 0.5, 1, 2), b: fc.constantFrom(0.5, 1, 2) }),
        fc.integer({ min: 0, max: 3 }),
        ([signals, shuffled], weights, maxOrders) => {
          const one = arbitrate(signals, { weights, maxOrders, minConfidence: 0.1 });
          const two = arbitrate(shuffled, { weights, maxOrders, minConfidence: 0.1 });
          expect(two).toEqual(one);
          // And the structural promises hold.
          expect(one.ranked).toHaveLength(signals.length);
          const directional = one.selected.filter((s) => Math.sign(s.direction) !== 0);
          expect(one.maxOrders).toBe(maxOrders);
          expect(new Set(one.selected.map((s) => s.symbol)).size).toBe(one.selected.length);
          for (const s of directional) expect(s.confidence).toBeGreaterThanOrEqual(0.1);
          const bestEligible = one.ranked.find(
            (r) =>
              Math.sign(r.signal.direction) !== 0 &&
              r.reason !== 'INVALID_SIGNAL' &&
              r.reason !== 'EXIT' &&
              r.reason !== 'BELOW_MIN_CONFIDENCE' &&
              r.reason !== 'ZERO_SCORE',
          );
          if (bestEligible) expect(bestEligible.selected).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});

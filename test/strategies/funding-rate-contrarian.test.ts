// funding_rate_contrarian: thresholds, contrarian direction, confidence ramp and clamping, spot and
// missing funding ignored, parameter validation.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createFundingRateContrarian,
  DEFAULT_FUNDING_RATE_CONTRARIAN_PARAMS,
  FUNDING_RATE_CONTRARIAN,
} from '../../src/strategies/funding-rate-contrarian.js';
import { PERP, SPOT, snapshot } from './snapshot.js';

const agent = createFundingRateContrarian();
/** What the agent says at this funding rate while it holds a short of 0.5 (its own position). */
const at = (fundingRate: number | null) => agent.analyse(snapshot([100], { fundingRate, position: -0.5 }), PERP);

describe('funding_rate_contrarian', () => {
  it('has the documented name and defaults', () => {
    expect(agent.name).toBe(FUNDING_RATE_CONTRARIAN);
    expect(DEFAULT_FUNDING_RATE_CONTRARIAN_PARAMS).toEqual({
      threshold: 0.0005,
      fullConfidenceRate: 0.002,
      exitRate: null,
    });
  });

  it.each([
    // Back within half the threshold: flat, so the allocator closes the position this agent opened.
    { funding: 0, expected: { direction: 0, confidence: 1 } },
    { funding: 0.00025, expected: { direction: 0, confidence: 1 } },
    { funding: -0.0002, expected: { direction: 0, confidence: 1 } },
    // Between the exit rate and the threshold: no opinion, the position is held.
    { funding: 0.0005, expected: null },
    { funding: -0.0005, expected: null },
    { funding: 0.0003, expected: null },
    { funding: 0.001, expected: { direction: -1, confidence: 0.5 } },
    { funding: -0.001, expected: { direction: 1, confidence: 0.5 } },
    { funding: 0.002, expected: { direction: -1, confidence: 1 } },
    { funding: -0.01, expected: { direction: 1, confidence: 1 } },
  ])('funding $funding → $expected', ({ funding, expected }) => {
    const s = at(funding);
    if (expected === null) expect(s).toBeNull();
    else {
      expect(s).toMatchObject({ agent: FUNDING_RATE_CONTRARIAN, symbol: 'BTCUSDT', direction: expected.direction });
      expect(s?.confidence).toBeCloseTo(expected.confidence, 12);
    }
  });

  it('says nothing of an exit while it holds nothing in the symbol (issue 19)', () => {
    // Before: a flat signal (confidence 1) for every symbol every cycle, logged and skipped EXIT_NOT_OWNER.
    expect(agent.analyse(snapshot([100], { fundingRate: 0 }), PERP)).toBeNull();
    expect(agent.analyse(snapshot([100], { fundingRate: 0.001 }), PERP)).toMatchObject({ direction: -1 });
  });

  it('a rate just past the threshold is usable, not near zero', () => {
    expect(at(0.00051)?.confidence).toBeCloseTo(0.255, 12);
  });

  it('ignores spot instruments and missing or unusable funding', () => {
    expect(agent.analyse(snapshot([100], { symbol: 'SOLUSDT', fundingRate: 0.01 }), SPOT)).toBeNull();
    expect(at(null)).toBeNull();
    expect(at(Number.NaN)).toBeNull();
  });

  it('honours custom params', () => {
    const custom = createFundingRateContrarian({ threshold: 0.0001, fullConfidenceRate: 0.0004, exitRate: 0 });
    expect(custom.analyse(snapshot([100], { fundingRate: 0.00001 }), PERP)).toBeNull();
    expect(custom.analyse(snapshot([100], { fundingRate: 0, position: 1 }), PERP)).toMatchObject({ direction: 0 });
    expect(custom.analyse(snapshot([100], { fundingRate: 0.0002 }), PERP)).toMatchObject({
      direction: -1,
      confidence: 0.5,
    });
  });

  it.each([
    [{ threshold: -0.1 }, /threshold/],
    [{ exitRate: 0.001 }, /exitRate/],
    [{ fullConfidenceRate: 0.0005 }, /fullConfidenceRate/],
    [{ threshold: Number.NaN }, /threshold/],
    [{ window: 3 } as unknown as { threshold: number }, /unknown parameter "window"/],
  ])('refuses params %j', (params, message) => {
    expect(() => createFundingRateContrarian(params)).toThrow(message);
  });

  it('confidence is in [0, 1] and grows with |funding| (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        (f1, f2) => {
          const [lo, hi] = Math.abs(f1) <= Math.abs(f2) ? [f1, f2] : [f2, f1];
          // Exits (direction 0) are not graded: only directional signals grow with |funding|.
          const directional = (f: number) => {
            const s = at(f);
            return s && s.direction !== 0 ? s : null;
          };
          const a = directional(lo);
          const b = directional(hi);
          for (const s of [a, b]) {
            if (s === null) continue;
            expect(s.confidence).toBeGreaterThanOrEqual(0);
            expect(s.confidence).toBeLessThanOrEqual(1);
          }
          if (a !== null) expect(b?.confidence ?? -1).toBeGreaterThanOrEqual(a.confidence);
        },
      ),
      { numRuns: 200 },
    );
  });
});

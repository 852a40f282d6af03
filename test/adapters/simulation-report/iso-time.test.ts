// isoTime must print exactly what toISOString prints: it writes every timestamp of equity.csv.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../src/adapters/simulation-report/iso-time.js';

describe('isoTime', () => {
  it('equals toISOString across days, at day edges and out of its fast range', () => {
    const edges = [
      0,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2026, 0, 1),
      -1,
      1.5,
      253402300800000,
    ];
    for (const ms of edges) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 11, 31) }), (ms) => {
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { seed: 42, numRuns: 2_000 },
    );
  });
});

/**
 * The walk-forward generator of the sweep spec (issue 34 item 7): `"walk_forward": {"mode", "folds",
 * "in_sample", "out_of_sample"}` lays the folds out over a replay from data.from. Rolling slides a
 * fixed in-sample window; anchored keeps its start and grows it. In both, each fold's in-sample
 * window ends where its out-of-sample window begins (no overlap), and the out-of-sample windows
 * follow one another without gap or overlap, so their runs stitch into one contiguous period.
 */
import { describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../../src/runtime/sweep/sweep-spec.js';
import { generateFolds, parseDuration } from '../../src/runtime/sweep/walk-forward-folds.js';

const H = 3_600_000;
const T0 = Date.parse('2024-01-01T00:00:00Z');

const spec = (walkForward: unknown, data: object = { dir: 'data', from: '2024-01-01T00:00:00Z' }) =>
  parseSweepSpec({ params: { RISK_FRACTION: [0.05, 0.1] }, data, walk_forward: walkForward });

describe('walk-forward generator: fold boundaries', () => {
  it('rolling: a fixed in-sample window slides by the out-of-sample length', () => {
    const folds = generateFolds({ mode: 'rolling', folds: 3, inSampleMs: 6 * H, outOfSampleMs: 2 * H }, T0);
    expect(folds.map((f) => [(f.inSample.from - T0) / H, (f.inSample.to - T0) / H])).toEqual([
      [0, 6],
      [2, 8],
      [4, 10],
    ]);
    expect(folds.map((f) => [(f.outOfSample.from - T0) / H, (f.outOfSample.to - T0) / H])).toEqual([
      [6, 8],
      [8, 10],
      [10, 12],
    ]);
  });

  it('anchored: the in-sample window keeps its start and grows by the out-of-sample length', () => {
    const folds = generateFolds({ mode: 'anchored', folds: 3, inSampleMs: 6 * H, outOfSampleMs: 2 * H }, T0);
    expect(folds.map((f) => [(f.inSample.from - T0) / H, (f.inSample.to - T0) / H])).toEqual([
      [0, 6],
      [0, 8],
      [0, 10],
    ]);
    expect(folds.map((f) => (f.outOfSample.from - T0) / H)).toEqual([6, 8, 10]);
  });

  for (const mode of ['rolling', 'anchored'] as const)
    it(`${mode}: in-sample never overlaps its out-of-sample, and the out-of-sample windows are contiguous`, () => {
      const folds = generateFolds({ mode, folds: 5, inSampleMs: 7 * H, outOfSampleMs: 3 * H }, T0);
      for (const [i, fold] of folds.entries()) {
        expect(fold.inSample.to).toBe(fold.outOfSample.from);
        expect(fold.outOfSample.to - fold.outOfSample.from).toBe(3 * H);
        if (i > 0) expect(fold.outOfSample.from).toBe(folds[i - 1]!.outOfSample.to);
      }
    });

  it('reads durations in minutes, hours, days and weeks', () => {
    expect(parseDuration('walk_forward.in_sample', '90m')).toBe(90 * 60_000);
    expect(parseDuration('walk_forward.in_sample', '12h')).toBe(12 * H);
    expect(parseDuration('walk_forward.in_sample', '14d')).toBe(14 * 24 * H);
    expect(parseDuration('walk_forward.in_sample', '2w')).toBe(14 * 24 * H);
    expect(() => parseDuration('walk_forward.in_sample', '14 days')).toThrow(
      /walk_forward\.in_sample must be a duration/,
    );
    expect(() => parseDuration('walk_forward.out_of_sample', '0h')).toThrow(/walk_forward\.out_of_sample/);
  });
});

describe('walk-forward generator in the spec', () => {
  it('becomes the folds the sweep runs, each window on the replay with its from and to', () => {
    const parsed = spec(
      { mode: 'rolling', folds: 2, in_sample: '6h', out_of_sample: '2h' },
      { dir: 'data', from: '2024-01-01T00:00:00Z', to: '2024-01-01T12:00:00Z' },
    );
    expect(parsed.walkForward).toHaveLength(2);
    expect(parsed.walkForward[1]!.inSample).toMatchObject({ from: T0 + 2 * H, to: T0 + 8 * H, cycles: null });
    expect(parsed.walkForward[1]!.outOfSample).toMatchObject({ from: T0 + 8 * H, to: T0 + 10 * H });
    expect(parsed.walkForwardPlan).toEqual({ mode: 'rolling', folds: 2, inSampleMs: 6 * H, outOfSampleMs: 2 * H });
  });

  it('refuses mistakes with exit-2 errors naming the field', () => {
    const ok = { mode: 'rolling', folds: 2, in_sample: '6h', out_of_sample: '2h' };
    expect(() => spec({ ...ok, mode: 'sliding' })).toThrow(/walk_forward\.mode must be "rolling" or "anchored"/);
    expect(() => spec({ ...ok, folds: 0 })).toThrow(/walk_forward\.folds must be a whole number/);
    expect(() => spec({ ...ok, in_sample: 6 })).toThrow(/walk_forward\.in_sample must be a duration/);
    expect(() => spec({ ...ok, out_of_sample: undefined })).toThrow(/walk_forward\.out_of_sample is required/);
    expect(() => spec({ ...ok, fold: 3 })).toThrow(/walk_forward\.fold is not a field here/);
    expect(() => spec(ok, { dir: 'data' })).toThrow(/data\.from is required with walk_forward\.mode/);
    expect(() => spec(ok, { seed: 1, cycles: 100 })).toThrow(/walk_forward\.mode needs a replay/);
    expect(() => spec(ok, { dir: 'data', from: '2024-01-01T00:00:00Z', cycles: 100 })).toThrow(/data\.cycles/);
    // 6 h in sample + 2 folds × 2 h out of sample = 10 h, past data.to at 8 h.
    expect(() => spec(ok, { dir: 'data', from: '2024-01-01T00:00:00Z', to: '2024-01-01T08:00:00Z' })).toThrow(
      /walk_forward\.folds run past the data: the last out-of-sample window ends at 2024-01-01T10:00:00.000Z, after data\.to/,
    );
  });

  it('keeps hand-written folds as they were (a list)', () => {
    const parsed = parseSweepSpec({
      params: { RISK_FRACTION: [0.05] },
      data: { cycles: 100 },
      walk_forward: [{ in_sample: { seed: 1 }, out_of_sample: { seed: 2 } }],
    });
    expect(parsed.walkForward).toHaveLength(1);
    expect(parsed.walkForwardPlan).toBeNull();
  });
});

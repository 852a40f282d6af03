/**
 * Review of issue 22 item 4 (defect): walk-forward's point is that a fold's out-of-sample window is
 * data the in-sample selection never saw. The spec parser requires "from" on each replay window but
 * never checks the windows apart: an in-sample window without "to" runs to the data's end and so
 * contains the whole out-of-sample window, and the sweep picks its "best" on the data it then reports
 * as out-of-sample (tcs sweep runs such a spec and exits 0).
 */
import { describe, expect, it } from 'vitest';
import { parseSweepSpec } from '../../src/runtime/sweep/sweep-spec.js';

const spec = (inSample: object, outOfSample: object) => ({
  params: { RISK_FRACTION: [0.01, 0.02] },
  data: { dir: 'data' },
  walk_forward: [{ in_sample: inSample, out_of_sample: outOfSample }],
});

describe('sweep spec: walk-forward windows', () => {
  it('refuses an in-sample window that runs into (here: contains) the out-of-sample window', () => {
    expect(() => parseSweepSpec(spec({ from: '2024-01-01T00:00:00Z' }, { from: '2024-02-01T00:00:00Z' }))).toThrow(
      /walk_forward\[0\]\.in_sample\.to must be set and at or before out_of_sample\.from/,
    );
  });

  it('refuses an in-sample window whose "to" is after the out-of-sample "from"', () => {
    expect(() =>
      parseSweepSpec(
        spec(
          { from: '2024-01-01T00:00:00Z', to: '2024-03-01T00:00:00Z' },
          { from: '2024-02-01T00:00:00Z', to: '2024-04-01T00:00:00Z' },
        ),
      ),
    ).toThrow(/walk_forward\[0\]\.in_sample\.to/);
  });

  it('accepts an in-sample window that ends where the out-of-sample one begins', () => {
    const parsed = parseSweepSpec(
      spec(
        { from: '2024-01-01T00:00:00Z', to: '2024-02-01T00:00:00Z' },
        { from: '2024-02-01T00:00:00Z', to: '2024-03-01T00:00:00Z' },
      ),
    );
    expect(parsed.walkForward).toHaveLength(1);
  });
});

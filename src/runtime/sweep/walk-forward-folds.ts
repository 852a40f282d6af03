/**
 * The walk-forward generator of the sweep spec: `"walk_forward": {"mode": "rolling"|"anchored",
 * "folds": N, "in_sample": "14d", "out_of_sample": "7d"}` lays N folds over a replay from data.from,
 * so nobody writes (and mistypes) fold dates by hand. Each fold's in-sample window ends where its
 * out-of-sample window begins, and the out-of-sample windows follow one another without gap or
 * overlap: their runs stitch into one contiguous period (walk-forward-stitch.ts).
 * Durations rather than fractions: a fraction of a replay depends on how long the data happens to
 * be, a duration says what the strategy is re-chosen on and how long the choice is then traded.
 */
import { field, knownKeys, optionalWhole } from './spec-fields.js';
import type { DataWindow } from './sweep-spec.js';

export interface WalkForwardPlan {
  /** rolling: the in-sample window slides by the out-of-sample length; anchored: it starts at data.from and grows. */
  mode: 'rolling' | 'anchored';
  folds: number;
  inSampleMs: number;
  outOfSampleMs: number;
}

/** A fold's windows as times (epoch ms): [from, to). */
export interface FoldRange {
  inSample: { from: number; to: number };
  outOfSample: { from: number; to: number };
}

/** More folds than this is a typo, not a plan (each fold runs the whole grid). */
export const MAX_FOLDS = 1_000;

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** "90m", "12h", "14d", "2w": a whole number of a unit, at least a minute. */
export function parseDuration(where: string, raw: unknown): number {
  const match = typeof raw === 'string' ? /^(\d+)(m|h|d|w)$/.exec(raw.trim()) : null;
  const ms = match === null ? 0 : Number(match[1]) * UNIT_MS[match[2]!]!;
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw field(where, 'must be a duration: a whole number and m, h, d or w, e.g. "14d" or "12h"', raw);
  return ms;
}

/** The folds of a plan, the first in-sample window starting at `start`. */
export function generateFolds(plan: WalkForwardPlan, start: number): FoldRange[] {
  return Array.from({ length: plan.folds }, (_, i) => {
    const oosFrom = start + plan.inSampleMs + i * plan.outOfSampleMs;
    return {
      inSample: { from: plan.mode === 'rolling' ? oosFrom - plan.inSampleMs : start, to: oosFrom },
      outOfSample: { from: oosFrom, to: oosFrom + plan.outOfSampleMs },
    };
  });
}

/** The generator's block, checked against `data`; answers the plan and each fold's windows. */
export function parseWalkForwardPlan(
  raw: Record<string, unknown>,
  data: DataWindow,
): { plan: WalkForwardPlan; folds: { inSample: DataWindow; outOfSample: DataWindow }[] } {
  knownKeys(raw, 'walk_forward.', ['mode', 'folds', 'in_sample', 'out_of_sample']);
  if (raw.mode !== 'rolling' && raw.mode !== 'anchored')
    throw field('walk_forward.mode', 'must be "rolling" or "anchored"', raw.mode);
  const folds = optionalWhole(raw, 'folds', 1, MAX_FOLDS, 'walk_forward');
  if (folds === null) throw field('walk_forward.folds', 'is required (how many folds)');
  for (const key of ['in_sample', 'out_of_sample'])
    if (raw[key] === undefined) throw field(`walk_forward.${key}`, 'is required, e.g. "14d"');
  const plan: WalkForwardPlan = {
    mode: raw.mode,
    folds,
    inSampleMs: parseDuration('walk_forward.in_sample', raw.in_sample),
    outOfSampleMs: parseDuration('walk_forward.out_of_sample', raw.out_of_sample),
  };
  // The synthetic path depends on its seed, not on dates: its windows cannot follow one another.
  if (data.dir === null)
    throw field(
      'walk_forward.mode',
      'needs a replay (data.dir): the synthetic market has no dates to lay folds over; write its folds by hand, a seed each',
    );
  if (data.from === null)
    throw field(
      'data.from',
      "is required with walk_forward.mode: fold 1's in-sample window starts there (leave the strategies their history before it)",
    );
  if (data.cycles !== null) throw field('data.cycles', 'cannot go with walk_forward.mode: the folds set each window');
  const ranges = generateFolds(plan, data.from);
  const end = ranges[ranges.length - 1]!.outOfSample.to;
  if (data.to !== null && end > data.to)
    throw field(
      'walk_forward.folds',
      `run past the data: the last out-of-sample window ends at ${new Date(end).toISOString()}, after data.to ${new Date(data.to).toISOString()} (fewer folds or shorter windows)`,
    );
  const window = (range: { from: number; to: number }): DataWindow => ({ ...data, cycles: null, ...range });
  return {
    plan,
    folds: ranges.map((r) => ({ inSample: window(r.inSample), outOfSample: window(r.outOfSample) })),
  };
}

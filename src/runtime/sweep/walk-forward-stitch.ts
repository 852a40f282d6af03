/**
 * Walk-forward arithmetic, pure: the out-of-sample runs stitched into one equity series, and the
 * walk-forward efficiency (WFE). Each out-of-sample run starts from the simulation's starting cash;
 * stitched, fold k's NAVs are scaled by (NAV where fold k−1 ended) ÷ (fold k's starting cash), so the
 * series is what one account would have made trading each fold's choice in turn, compounded.
 *
 * Annualised returns are simple rates (return × 365 ÷ days), not compounded (CAGR): a compounded
 * rate of a 6-hour window turns −0.4 % into −99.8 %, and the ratio of two such figures says nothing.
 * WFE is pooled: the stitched out-of-sample rate ÷ the in-sample rates averaged by their length
 * (365 × Σ in-sample returns ÷ Σ in-sample days). It is undefined (null) when that in-sample rate is
 * not positive: a strategy that lost in sample has no efficiency to keep.
 */

const DAYS_PER_YEAR = 365;

export interface FoldEquity {
  fold: number;
  startingCash: number;
  /** The out-of-sample run's equity rows: [ts, nav]. */
  equity: readonly (readonly [string, number])[];
}

export interface StitchedRow {
  ts: string;
  fold: number;
  nav: number;
  /** Fall from the highest stitched NAV so far (the start included), a fraction. */
  drawdown: number;
}

export interface Stitched {
  rows: StitchedRow[];
  /** The first fold's starting cash; null without folds. */
  start: number | null;
  totalReturn: number | null;
  maxDrawdown: number | null;
}

export function stitchEquity(folds: readonly FoldEquity[]): Stitched {
  if (folds.length === 0) return { rows: [], start: null, totalReturn: null, maxDrawdown: null };
  const start = folds[0]!.startingCash;
  let base = start;
  let peak = start;
  let maxDrawdown = 0;
  const rows: StitchedRow[] = [];
  for (const { fold, startingCash, equity } of folds) {
    const scale = base / startingCash;
    for (const [ts, nav] of equity) {
      const scaled = nav * scale;
      peak = Math.max(peak, scaled);
      const drawdown = peak > 0 ? (peak - scaled) / peak : 0;
      maxDrawdown = Math.max(maxDrawdown, drawdown);
      rows.push({ ts, fold, nav: scaled, drawdown });
    }
    if (equity.length > 0) base = equity[equity.length - 1]![1] * scale;
  }
  return { rows, start, totalReturn: base / start - 1, maxDrawdown };
}

/** A return over `days` as a simple yearly rate; null over no time. */
export function annualised(totalReturn: number, days: number): number | null {
  return days > 0 ? (totalReturn * DAYS_PER_YEAR) / days : null;
}

export interface Span {
  totalReturn: number | null;
  days: number;
}

function ratio(oos: number | null, is: number | null): number | null {
  return oos === null || is === null || is <= 0 ? null : oos / is;
}

/** One fold's WFE: its out-of-sample rate ÷ its in-sample rate. */
export function foldEfficiency(outOfSample: Span, inSample: Span): number | null {
  if (outOfSample.totalReturn === null || inSample.totalReturn === null) return null;
  return ratio(annualised(outOfSample.totalReturn, outOfSample.days), annualised(inSample.totalReturn, inSample.days));
}

/** The time-weighted yearly rate of the in-sample runs: 365 × Σ returns ÷ Σ days. */
export function pooledInSampleRate(inSample: readonly Span[]): number | null {
  if (inSample.some((s) => s.totalReturn === null)) return null;
  const days = inSample.reduce((sum, s) => sum + s.days, 0);
  return annualised(
    inSample.reduce((sum, s) => sum + s.totalReturn!, 0),
    days,
  );
}

/** The sweep's WFE, pooled: the stitched out-of-sample rate ÷ the pooled in-sample rate. */
export function pooledEfficiency(stitched: Span, inSample: readonly Span[]): number | null {
  if (stitched.totalReturn === null) return null;
  return ratio(annualised(stitched.totalReturn, stitched.days), pooledInSampleRate(inSample));
}

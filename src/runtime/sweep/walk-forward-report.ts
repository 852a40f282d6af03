/**
 * A walk-forward sweep's answer: per fold the windows, the set chosen in sample (rank 1 by the
 * objective, constraints respected), its objective in and out of sample and its out-of-sample return;
 * overall the stitched out-of-sample return and drawdown and the pooled walk-forward efficiency
 * (walk-forward-stitch.ts). Written to results.json and walk_forward/equity.csv, printed as lines at
 * the end of the sweep and drawn on results.html (sweep-results-page.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrialRow } from './sweep-results.js';
import { meetsConstraints } from './sweep-objective.js';
import type { Objective } from './sweep-objective.js';
import type { DataWindow } from './sweep-spec.js';
import type { WalkForwardPlan } from './walk-forward-folds.js';
import {
  annualised,
  foldEfficiency,
  pooledEfficiency,
  pooledInSampleRate,
  stitchEquity,
} from './walk-forward-stitch.js';
import type { Stitched } from './walk-forward-stitch.js';

export interface WindowReport {
  from: string | null;
  to: string | null;
  /** The synthetic market's seed (hand-written synthetic folds), else null. */
  seed: number | null;
  days: number;
}

export interface FoldReport {
  fold: number;
  in_sample: WindowReport;
  out_of_sample: WindowReport;
  param_set: string;
  params: Record<string, string>;
  in_sample_trial: string;
  out_of_sample_trial: string;
  /** False when no set met the constraints in sample (the chosen one is then the best of those that did not). */
  in_sample_meets_constraints: boolean;
  in_sample_objective: number | null;
  out_of_sample_objective: number | null;
  in_sample_return: number | null;
  out_of_sample_return: number | null;
  /** This fold's out-of-sample rate ÷ its in-sample rate (null when the in-sample rate is not positive). */
  wfe: number | null;
}

export interface WalkForwardReport {
  /** rolling or anchored (the generator), or folds (written by hand in the spec). */
  mode: 'rolling' | 'anchored' | 'folds';
  objective: string;
  folds: FoldReport[];
  stitched_return: number | null;
  stitched_max_drawdown: number | null;
  out_of_sample_days: number;
  /** Simple yearly rates: return × 365 ÷ days. */
  annualised_out_of_sample_return: number | null;
  annualised_in_sample_return: number | null;
  wfe: number | null;
  wfe_method: string;
  equity_csv: string;
}

export const WFE_METHOD =
  'pooled: annualised stitched out-of-sample return ÷ time-weighted annualised in-sample return of the chosen sets (simple rates, return × 365 ÷ days); null when the in-sample rate is not positive';

export const EQUITY_FILE = join('walk_forward', 'equity.csv');

/**
 * The report, from the ranked rows of a walk-forward sweep; null when a fold has no out-of-sample
 * result (the sweep was stopped before it ran).
 */
export function walkForwardReport(
  rows: readonly TrialRow[],
  folds: number,
  plan: WalkForwardPlan | null,
  objective: Objective,
): { report: WalkForwardReport; stitched: Stitched } | null {
  const pairs: { is: TrialRow; oos: TrialRow }[] = [];
  for (let fold = 1; fold <= folds; fold++) {
    const is = rows.find((r) => r.fold === fold && r.sample === 'in_sample' && r.rank === 1);
    const oos = rows.find((r) => r.fold === fold && r.sample === 'out_of_sample');
    if (is === undefined || oos?.result.equity === undefined) return null;
    pairs.push({ is, oos });
  }
  const stitched = stitchEquity(
    pairs.map(({ oos }) => ({
      fold: oos.fold!,
      startingCash: oos.result.equity!.startingCash,
      equity: oos.result.equity!.rows,
    })),
  );
  const span = (row: TrialRow) => ({ totalReturn: row.result.figures.total_return, days: row.result.days });
  const oosDays = pairs.reduce((sum, { oos }) => sum + oos.result.days, 0);
  const stitchedSpan = { totalReturn: stitched.totalReturn, days: oosDays };
  const report: WalkForwardReport = {
    mode: plan?.mode ?? 'folds',
    objective: objective.metric,
    folds: pairs.map(({ is, oos }) => ({
      fold: is.fold!,
      in_sample: windowReport(is.window, is.result.days),
      out_of_sample: windowReport(oos.window, oos.result.days),
      param_set: is.paramSet,
      params: is.params,
      in_sample_trial: is.id,
      out_of_sample_trial: oos.id,
      in_sample_meets_constraints: meetsConstraints(is.result.figures, objective.constraints),
      in_sample_objective: is.result.figures[objective.metric],
      out_of_sample_objective: oos.result.figures[objective.metric],
      in_sample_return: is.result.figures.total_return,
      out_of_sample_return: oos.result.figures.total_return,
      wfe: foldEfficiency(span(oos), span(is)),
    })),
    stitched_return: stitched.totalReturn,
    stitched_max_drawdown: stitched.maxDrawdown,
    out_of_sample_days: oosDays,
    annualised_out_of_sample_return: stitched.totalReturn === null ? null : annualised(stitched.totalReturn, oosDays),
    annualised_in_sample_return: pooledInSampleRate(pairs.map(({ is }) => span(is))),
    wfe: pooledEfficiency(
      stitchedSpan,
      pairs.map(({ is }) => span(is)),
    ),
    wfe_method: WFE_METHOD,
    equity_csv: EQUITY_FILE,
  };
  return { report, stitched };
}

function windowReport(window: DataWindow, days: number): WindowReport {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return { from: iso(window.from), to: iso(window.to), seed: window.dir === null ? window.seed : null, days };
}

/** walk_forward/equity.csv: the stitched out-of-sample NAV, one row per out-of-sample cycle. */
export function writeStitchedEquity(dir: string, stitched: Stitched): void {
  mkdirSync(join(dir, 'walk_forward'), { recursive: true });
  const lines = stitched.rows.map((r) => `${r.ts},${r.fold},${r.nav},${r.drawdown}`);
  writeFileSync(join(dir, EQUITY_FILE), `${['ts,fold,nav,drawdown', ...lines].join('\n')}\n`);
}

const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(2)} %`);
const num = (x: number | null) => (x === null ? 'n/a' : String(Number(x.toPrecision(6))));

/** A window as a reader wants it: "2024-01-01T09:00Z → 2024-01-01T15:00Z", or the synthetic seed. */
export function windowText(w: WindowReport): string {
  const short = (iso: string | null) => (iso === null ? '…' : iso.replace(/:00\.000Z$/, 'Z'));
  if (w.from === null && w.to === null) return w.seed === null ? 'the data' : `seed ${w.seed}`;
  return `${short(w.from)} → ${short(w.to)}`;
}

/** The lines printed at the end of the sweep: one per fold, then the stitched result and WFE. */
export function walkForwardLines(report: WalkForwardReport, out: string): string[] {
  const folds = report.folds.map(
    (f) =>
      `  fold ${f.fold}: in sample ${windowText(f.in_sample)}, out of sample ${windowText(f.out_of_sample)}: ${f.param_set} (${Object.entries(
        f.params,
      )
        .map(([k, v]) => `${k}=${v}`)
        .join(
          ' ',
        )}) ${report.objective} ${num(f.in_sample_objective)} in sample, ${num(f.out_of_sample_objective)} out of sample; out-of-sample return ${pct(f.out_of_sample_return)}${f.in_sample_meets_constraints ? '' : ' (no set met the constraints in sample)'}`,
  );
  return [
    `walk-forward (${report.mode}, ${report.folds.length} fold${report.folds.length === 1 ? '' : 's'}):`,
    ...folds,
    `stitched out-of-sample return ${pct(report.stitched_return)}, max drawdown ${pct(report.stitched_max_drawdown)}, WFE ${num(report.wfe)} (pooled: annualised ${pct(report.annualised_out_of_sample_return)} out of sample ÷ ${pct(report.annualised_in_sample_return)} in sample); equity in ${join(out, report.equity_csv)}`,
  ];
}

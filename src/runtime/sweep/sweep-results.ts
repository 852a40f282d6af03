/**
 * A sweep's results: results.csv (one row per trial, in trial order: its parameters, the figures of
 * its summary.json, its rank in its group and whether it meets the constraints), results.html
 * (sweep-results-page.ts), results.json (the objective and the walk-forward report,
 * walk-forward-report.ts), and the lines that name the best parameters. A group is the trials ranked
 * together: all of them, or, with walk-forward, one fold's in-sample or out-of-sample trials.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareTrials, meetsConstraints, TRIAL_FIGURES } from './sweep-objective.js';
import { resultsPage } from './sweep-results-page.js';
import type { ResultsPageOptions } from './sweep-results-page.js';
import type { Objective } from './sweep-objective.js';
import type { TrialResult } from './trial-runner.js';
import type { Trial } from './sweep-trials.js';

export interface TrialRow extends Trial {
  result: TrialResult;
  rank: number;
}

/** Ranks each group's trials by the objective (1 = best); rows stay in trial order. */
export function rankRows(
  trials: readonly Trial[],
  results: ReadonlyMap<string, TrialResult>,
  objective: Objective,
): TrialRow[] {
  const rows = trials.map((trial) => ({ ...trial, result: results.get(trial.id)!, rank: 0 }));
  const order = compareTrials(objective);
  const groups = new Map<string, TrialRow[]>();
  for (const row of rows) {
    const key = `${row.fold ?? ''}/${row.sample}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const group of groups.values())
    group
      .sort((a, b) => order({ id: a.id, figures: a.result.figures }, { id: b.id, figures: b.result.figures }))
      .forEach((row, i) => (row.rank = i + 1));
  return rows;
}

export function writeResults(
  dir: string,
  rows: readonly TrialRow[],
  params: readonly string[],
  objective: Objective,
  page: ResultsPageOptions,
): void {
  writeFileSync(join(dir, 'results.csv'), resultsCsv(rows, params, objective));
  writeFileSync(join(dir, 'results.html'), resultsPage(rows, params, objective, page));
  // What a program reads without parsing the CSV: the objective and, with walk-forward, its report.
  const json = { objective, trials: rows.length, walk_forward: page.walkForward ?? null };
  writeFileSync(join(dir, 'results.json'), `${JSON.stringify(json, null, 2)}\n`);
}

const fixedColumns = ['trial', 'param_set', 'fold', 'sample'];

export function resultsCsv(rows: readonly TrialRow[], params: readonly string[], objective: Objective): string {
  const header = [...fixedColumns, ...params, 'partial', ...TRIAL_FIGURES, 'rank', 'meets_constraints'];
  const lines = rows.map((row) =>
    [row.id, row.paramSet, row.fold ?? '', row.sample, ...params.map((p) => row.params[p] ?? ''), row.result.partial]
      .concat(
        TRIAL_FIGURES.map((f) => row.result.figures[f] ?? ''),
        row.rank,
        meetsConstraints(row.result.figures, objective.constraints),
      )
      .map((cell) => csvCell(String(cell)))
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\n')}\n`;
}

function csvCell(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The best of each ranked group, as lines for the end of the sweep. */
export function bestLines(rows: readonly TrialRow[], objective: Objective): string[] {
  const shown = (row: TrialRow) =>
    `${objective.metric} ${row.result.figures[objective.metric] ?? 'null'}: ${Object.entries(row.params)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`;
  const best = rows.filter((row) => row.rank === 1 && row.sample !== 'out_of_sample');
  return best.map((row) => {
    // The first ranked breaks a constraint only when every trial of its group does.
    const none = meetsConstraints(row.result.figures, objective.constraints) ? '' : ' — no trial meets the constraints';
    if (row.fold === null) return `best trial ${row.id} (${shown(row)})${none}`;
    const oos = rows.find((r) => r.fold === row.fold && r.sample === 'out_of_sample');
    const oosFigure = oos?.result.figures[objective.metric] ?? 'null';
    return `fold ${row.fold}: best in-sample ${row.id} (${shown(row)}); out-of-sample ${objective.metric} ${oosFigure}${none}`;
  });
}

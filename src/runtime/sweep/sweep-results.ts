/**
 * A sweep's results: results.csv (one row per trial, in trial order: its parameters, the figures of
 * its summary.json and its rank in its group) and results.html (the same, ranked best first, one
 * self-contained page), and the lines that name the best parameters. A group is the trials ranked
 * together: all of them, or, with walk-forward, one fold's in-sample or out-of-sample trials.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareTrials, TRIAL_FIGURES } from './sweep-objective.js';
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
): void {
  writeFileSync(join(dir, 'results.csv'), resultsCsv(rows, params));
  writeFileSync(join(dir, 'results.html'), resultsHtml(rows, params, objective));
}

const fixedColumns = ['trial', 'param_set', 'fold', 'sample'];

export function resultsCsv(rows: readonly TrialRow[], params: readonly string[]): string {
  const header = [...fixedColumns, ...params, 'partial', ...TRIAL_FIGURES, 'rank'];
  const lines = rows.map((row) =>
    [row.id, row.paramSet, row.fold ?? '', row.sample, ...params.map((p) => row.params[p] ?? ''), row.result.partial]
      .concat(
        TRIAL_FIGURES.map((f) => row.result.figures[f] ?? ''),
        row.rank,
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
    if (row.fold === null) return `best trial ${row.id} (${shown(row)})`;
    const oos = rows.find((r) => r.fold === row.fold && r.sample === 'out_of_sample');
    const oosFigure = oos?.result.figures[objective.metric] ?? 'null';
    return `fold ${row.fold}: best in-sample ${row.id} (${shown(row)}); out-of-sample ${objective.metric} ${oosFigure}`;
  });
}

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function resultsHtml(rows: readonly TrialRow[], params: readonly string[], objective: Objective): string {
  const ranked = [...rows].sort((a, b) =>
    `${a.fold ?? 0}/${a.sample}` === `${b.fold ?? 0}/${b.sample}`
      ? a.rank - b.rank
      : `${a.fold ?? 0}/${a.sample}` < `${b.fold ?? 0}/${b.sample}`
        ? -1
        : 1,
  );
  const head = ['rank', 'trial', 'fold', 'sample', ...params, ...TRIAL_FIGURES]
    .map((h) => `<th${h === objective.metric ? ' class="objective"' : ''}>${escape(h)}</th>`)
    .join('');
  const body = ranked
    .map((row) => {
      const cells = [
        String(row.rank),
        row.id,
        String(row.fold ?? ''),
        row.sample,
        ...params.map((p) => row.params[p] ?? ''),
      ]
        .map((c) => `<td>${escape(c)}</td>`)
        .concat(
          TRIAL_FIGURES.map(
            (f) => `<td class="num${f === objective.metric ? ' objective' : ''}">${row.result.figures[f] ?? '—'}</td>`,
          ),
        );
      return `<tr${row.rank === 1 ? ' class="best"' : ''}>${cells.join('')}</tr>`;
    })
    .join('\n');
  const best = bestLines(rows, objective)
    .map((line) => `<li>${escape(line)}</li>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sweep results</title>
<style>body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse}th,td{padding:3px 8px;border-bottom:1px solid #ddd;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums}.objective{background:#eef4ff}tr.best td{font-weight:600}</style></head>
<body><h1>Sweep results</h1>
<p>${rows.length} trials, ranked by <b>${escape(objective.metric)}</b> (${objective.goal === 'max' ? 'higher' : 'lower'} is better) within each group; figures as in summary.json (docs/strategies/simulation-metrics.md).</p>
<ul>${best}</ul>
<table><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></body></html>
`;
}

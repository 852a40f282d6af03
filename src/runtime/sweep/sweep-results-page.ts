/**
 * results.html of a sweep: one self-contained page (no request leaves it) with the best parameters,
 * a heatmap of the objective when the sweep varies exactly two axes, and the trials as a table that
 * sorts on a click of any column (rounded figures, full precision in results.csv), each trial linked
 * to its own report when the trials ran here (the local pool keeps trials/<id>/report.html). The table
 * scrolls sideways inside the page rather than being cut off.
 */
import { bestLines } from './sweep-results.js';
import type { TrialRow } from './sweep-results.js';
import { meetsConstraints, TRIAL_FIGURES } from './sweep-objective.js';
import type { Objective } from './sweep-objective.js';
import { walkForwardSection } from './walk-forward-section.js';
import { escape, rounded } from './sweep-html.js';
import type { WalkForwardReport } from './walk-forward-report.js';
import type { StitchedRow } from './walk-forward-stitch.js';

export interface ResultsPageOptions {
  /** Link each trial to trials/<id>/report.html (true when the local pool ran them). */
  reportLinks: boolean;
  /** The walk-forward report, drawn above the trials (null or absent without walk-forward). */
  walkForward?: WalkForwardReport | null;
  /** The stitched out-of-sample equity, charted in the walk-forward section. */
  walkForwardEquity?: readonly StitchedRow[];
}

export function resultsPage(
  rows: readonly TrialRow[],
  params: readonly string[],
  objective: Objective,
  options: ResultsPageOptions,
): string {
  const group = (r: TrialRow) => `${r.fold ?? 0}/${r.sample}`;
  const ranked = [...rows].sort((a, b) => (group(a) === group(b) ? a.rank - b.rank : group(a) < group(b) ? -1 : 1));
  const columns = ['rank', 'trial', 'fold', 'sample', ...params, ...TRIAL_FIGURES];
  const head = columns
    .map(
      (h, i) =>
        `<th data-col="${i}"${h === objective.metric ? ' class="objective"' : ''} title="sort by ${escape(h)}">${escape(h)}</th>`,
    )
    .join('');
  const body = ranked
    .map((row) => {
      const trial = options.reportLinks
        ? `<a href="trials/${encodeURIComponent(row.id)}/report.html">${escape(row.id)}</a>`
        : escape(row.id);
      const text = [String(row.fold ?? ''), row.sample, ...params.map((p) => row.params[p] ?? '')].map(
        (c) => `<td>${escape(c)}</td>`,
      );
      const figures = TRIAL_FIGURES.map((f) => {
        const value = row.result.figures[f];
        return `<td class="num${f === objective.metric ? ' objective' : ''}" data-v="${value ?? ''}">${rounded(value)}</td>`;
      });
      const failing = !meetsConstraints(row.result.figures, objective.constraints);
      const classes = [row.rank === 1 && !failing ? 'best' : '', failing ? 'fails' : ''].filter(Boolean).join(' ');
      return `<tr${classes ? ` class="${classes}"` : ''}><td class="num" data-v="${row.rank}">${row.rank}</td><td>${trial}</td>${text.join('')}${figures.join('')}</tr>`;
    })
    .join('\n');
  const best = bestLines(rows, objective)
    .map((line) => `<li>${escape(line)}</li>`)
    .join('');
  const constraints =
    objective.constraints.length === 0
      ? ''
      : ` Constraints: ${objective.constraints
          .map((c) => `${c.metric}${c.min !== null ? ` ≥ ${c.min}` : ''}${c.max !== null ? ` ≤ ${c.max}` : ''}`)
          .map(escape)
          .join(', ')}; a trial that breaks one (greyed) ranks after every trial that meets them.`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sweep results</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:1.5em}.scroll{overflow-x:auto;max-width:100%}table{border-collapse:collapse}
th,td{padding:3px 8px;border-bottom:1px solid #ddd;white-space:nowrap}th{cursor:pointer;background:#f6f8fa;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums}.objective{background:#eef4ff}tr.best td{font-weight:600}tr.fails td{color:#8a8f98}
.heat td{width:64px;text-align:center;font-variant-numeric:tabular-nums;border:1px solid #fff}.heat th{cursor:default}</style></head>
<body><h1>Sweep results</h1>
<p>${rows.length} trials, ranked by <b>${escape(objective.metric)}</b> (${objective.goal === 'max' ? 'higher' : 'lower'} is better) within each group; figures as in summary.json (docs/strategies/simulation-metrics.md), rounded here and whole in results.csv.${constraints} Click a column to sort.</p>
<ul>${best}</ul>
${options.walkForward ? walkForwardSection(options.walkForward, options.walkForwardEquity) : ''}
${heatmap(rows, params, objective)}
<div class="scroll"><table id="trials"><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table></div>
<script>${SORT_SCRIPT}</script></body></html>
`;
}

/**
 * The objective over two axes (their values as rows and columns, a cell per combination), shaded
 * from worst (white) to best (blue). Only for a sweep of exactly two axes without walk-forward:
 * with more, a cell would hide the other axes' values.
 */
function heatmap(rows: readonly TrialRow[], params: readonly string[], objective: Objective): string {
  if (params.length !== 2 || rows.some((r) => r.sample !== 'all')) return '';
  const [a, b] = params as [string, string];
  const order = (values: string[]) =>
    [...new Set(values)].sort((x, y) => {
      const nx = Number(x);
      const ny = Number(y);
      return Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x < y ? -1 : x > y ? 1 : 0;
    });
  const xs = order(rows.map((r) => r.params[b] ?? ''));
  const ys = order(rows.map((r) => r.params[a] ?? ''));
  const value = new Map(rows.map((r) => [`${r.params[a]}\u0000${r.params[b]}`, r.result.figures[objective.metric]]));
  const finite = [...value.values()].filter((v): v is number => v !== null);
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  const shade = (v: number) => {
    const t = hi === lo ? 1 : (v - lo) / (hi - lo);
    const good = objective.goal === 'max' ? t : 1 - t;
    return `rgba(37,99,235,${(0.08 + 0.72 * good).toFixed(2)})`;
  };
  const cells = ys
    .map((y) => {
      const tds = xs
        .map((x) => {
          const v = value.get(`${y}\u0000${x}`) ?? null;
          return v === null ? '<td>—</td>' : `<td style="background:${shade(v)}">${rounded(v)}</td>`;
        })
        .join('');
      return `<tr><th>${escape(y)}</th>${tds}</tr>`;
    })
    .join('');
  return `<h2>${escape(objective.metric)} by ${escape(a)} (rows) and ${escape(b)} (columns)</h2>
<table class="heat" id="heatmap"><thead><tr><th>${escape(a)} \\ ${escape(b)}</th>${xs.map((x) => `<th>${escape(x)}</th>`).join('')}</tr></thead><tbody>${cells}</tbody></table>`;
}

/** Sorts the trials table on a header click: numbers by value (data-v), text by its words; again reverses. */
const SORT_SCRIPT = `
(function () {
  var table = document.getElementById('trials');
  var body = table.tBodies[0];
  var direction = {};
  table.tHead.addEventListener('click', function (event) {
    var th = event.target.closest('th');
    if (!th) return;
    var col = Number(th.getAttribute('data-col'));
    direction[col] = -(direction[col] || -1);
    var key = function (tr) {
      var td = tr.cells[col];
      var v = td.getAttribute('data-v');
      return v === null ? td.textContent : v === '' ? null : Number(v);
    };
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (x, y) {
      var a = key(x), b = key(y);
      if (a === b) return 0;
      if (a === null) return 1;
      if (b === null) return -1;
      return (a < b ? -1 : 1) * direction[col];
    });
    rows.forEach(function (tr) { body.appendChild(tr); });
  });
})();
`;

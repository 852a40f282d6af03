/**
 * The walk-forward part of results.html: the stitched out-of-sample return, drawdown and pooled WFE
 * in a sentence, an inline SVG chart of the stitched equity (no script, no request), and a table of
 * the folds (windows, chosen set, objective in and out of sample, out-of-sample return, the fold's
 * own WFE).
 */
import { escape, rounded } from './sweep-html.js';
import type { WalkForwardReport } from './walk-forward-report.js';
import type { StitchedRow } from './walk-forward-stitch.js';
import { windowText } from './walk-forward-report.js';

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(2)} %`);

/** At most this many points drawn: a long run's every cycle would only weigh the page down. */
export const CHART_POINTS = 800;
const WIDTH = 800;
const HEIGHT = 180;

/**
 * The stitched NAV as an SVG line (every k-th row and the last, so the whole period is drawn), a
 * dashed line where each fold after the first begins.
 */
export function equityChart(rows: readonly StitchedRow[]): string {
  if (rows.length < 2) return '';
  const step = Math.ceil(rows.length / CHART_POINTS);
  const drawn = rows.map((r, i) => ({ r, i })).filter(({ i }) => i % step === 0 || i === rows.length - 1);
  const navs = drawn.map(({ r }) => r.nav);
  const lo = Math.min(...navs);
  const hi = Math.max(...navs);
  const x = (i: number) => ((i / (rows.length - 1)) * WIDTH).toFixed(1);
  const y = (nav: number) => (hi === lo ? HEIGHT / 2 : HEIGHT - ((nav - lo) / (hi - lo)) * HEIGHT).toFixed(1);
  const points = drawn.map(({ r, i }) => `${x(i)},${y(r.nav)}`).join(' ');
  const starts = rows
    .map((r, i) => ({ r, i }))
    .filter(({ r, i }) => i > 0 && r.fold !== rows[i - 1]!.fold)
    .map(({ i }) => `<line x1="${x(i)}" x2="${x(i)}" y1="0" y2="${HEIGHT}" stroke="#bbb" stroke-dasharray="3 3"/>`)
    .join('');
  return `<svg id="walk-forward-equity" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="stitched out-of-sample NAV, ${rounded(lo)} to ${rounded(hi)}">${starts}<polyline fill="none" stroke="#2563eb" stroke-width="1.5" points="${points}"/></svg>
<p><small>Stitched out-of-sample NAV from ${escape(rows[0]!.ts)} to ${escape(rows[rows.length - 1]!.ts)} (${rounded(lo)} to ${rounded(hi)}); dashed: a fold begins.</small></p>`;
}

export function walkForwardSection(report: WalkForwardReport, equity: readonly StitchedRow[] = []): string {
  const rows = report.folds
    .map((f) => {
      const params = Object.entries(f.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      const cells = [
        `<td class="num">${f.fold}</td>`,
        `<td>${escape(windowText(f.in_sample))}</td>`,
        `<td>${escape(windowText(f.out_of_sample))}</td>`,
        `<td>${escape(f.param_set)} <small>${escape(params)}</small>${f.in_sample_meets_constraints ? '' : ' <small>(no set met the constraints)</small>'}</td>`,
        `<td class="num">${rounded(f.in_sample_objective)}</td>`,
        `<td class="num">${rounded(f.out_of_sample_objective)}</td>`,
        `<td class="num">${pct(f.out_of_sample_return)}</td>`,
        `<td class="num">${rounded(f.wfe)}</td>`,
      ];
      return `<tr>${cells.join('')}</tr>`;
    })
    .join('\n');
  const objective = escape(report.objective);
  return `<h2>Walk-forward (${escape(report.mode)}, ${report.folds.length} folds)</h2>
<p id="walk-forward-summary">Stitched out-of-sample return <b>${pct(report.stitched_return)}</b> over ${rounded(report.out_of_sample_days)} days, max drawdown <b>${pct(report.stitched_max_drawdown)}</b>, walk-forward efficiency <b>${rounded(report.wfe)}</b> (${escape(report.wfe_method)}): annualised ${pct(report.annualised_out_of_sample_return)} out of sample ÷ ${pct(report.annualised_in_sample_return)} in sample. The stitched equity is in ${escape(report.equity_csv)}: each fold's out-of-sample run compounded from the NAV the previous fold ended at.</p>
${equityChart(equity)}
<table id="walk-forward"><thead><tr><th>fold</th><th>in sample</th><th>out of sample</th><th>chosen set</th><th>${objective} in sample</th><th>${objective} out of sample</th><th>out-of-sample return</th><th>WFE</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

/**
 * The walk-forward part of results.html: the stitched out-of-sample return, drawdown and pooled WFE
 * in a sentence, a small inline chart of the stitched equity, and a table of the folds (windows,
 * chosen set, objective in and out of sample, out-of-sample return, the fold's own WFE).
 */
import { escape, rounded } from './sweep-html.js';
import type { WalkForwardReport } from './walk-forward-report.js';
import { windowText } from './walk-forward-report.js';

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(2)} %`);

export function walkForwardSection(report: WalkForwardReport): string {
  const rows = report.folds
    .map((f) => {
      const params = Object.entries(f.params)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      const cells = [
        `<td class="num">${f.fold}</td>`,
        `<td>${escape(windowText(f.in_sample))}</td>`,
        `<td>${escape(windowText(f.out_of_sample))}</td>`,
        `<td>${escape(f.param_set)} <small>${escape(params)}</small></td>`,
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
<table id="walk-forward"><thead><tr><th>fold</th><th>in sample</th><th>out of sample</th><th>chosen set</th><th>${objective} in sample</th><th>${objective} out of sample</th><th>out-of-sample return</th><th>WFE</th></tr></thead><tbody>
${rows}
</tbody></table>`;
}

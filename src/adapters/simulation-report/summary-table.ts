/**
 * The summary as an aligned text table for the end of a run (stdout): the metrics, then PnL by
 * symbol and by strategy, then denials by guard. Plain ASCII columns so it reads in any terminal
 * and in a CI log.
 */
import type { RunSummary } from '../../domain/performance/run-summary.js';
import { metricRows, money } from './metric-rows.js';

/** Columns padded to their widest cell; the first left-aligned, the others right-aligned. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function formatSummaryTable(s: RunSummary): string {
  const sections = [table(['Metric', 'Value'], metricRows(s))];
  const symbols = Object.entries(s.pnl_by_symbol);
  if (symbols.length > 0) {
    sections.push(
      table(
        ['Symbol', 'Net PnL', 'Trading', 'Fees', 'Funding', 'Fills', 'Volume'],
        symbols.map(([k, p]) => [
          k,
          money(p.net),
          money(p.trading),
          money(p.fees),
          money(p.funding),
          String(p.fills),
          money(p.volume),
        ]),
      ),
    );
  }
  const strategies = Object.entries(s.pnl_by_strategy);
  if (strategies.length > 0) {
    sections.push(
      table(
        ['Strategy', 'Net PnL', 'Trading', 'Fees', 'Funding'],
        strategies.map(([k, p]) => [k, money(p.net), money(p.trading), money(p.fees), money(p.funding)]),
      ),
    );
  }
  const guards = Object.entries(s.denials_by_guard);
  sections.push(
    guards.length > 0
      ? table(
          ['Guard', 'Denials'],
          guards.map(([g, n]) => [g, String(n)]),
        )
      : 'Denials: none',
  );
  return `${sections.join('\n\n')}\n`;
}

export function printSummaryTable(s: RunSummary, out: { write(text: string): unknown } = process.stdout): void {
  out.write(formatSummaryTable(s));
}

/**
 * The summary as an aligned text table for the end of a run (stdout): the metrics, then PnL by
 * symbol, the costs (fees, spread, slippage) by symbol, then PnL by strategy, then denials by guard, then the signal funnel (what became of each
 * strategy's signals, so 0 denials beside 0 fills says why), then the first error a strategy threw (if any). Plain ASCII columns so it reads in any terminal
 * and in a CI log.
 */
import type { RunSummary } from '../../domain/performance/run-summary.js';
import {
  COST_HEADERS,
  costRows,
  FUNNEL_HEADERS,
  funnelRows,
  metricRows,
  STRATEGY_PNL_HEADERS,
  strategyPnlRows,
  SYMBOL_PNL_HEADERS,
  symbolPnlRows,
} from './metric-rows.js';

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
  const symbols = symbolPnlRows(s);
  if (symbols.length > 0) sections.push(table(SYMBOL_PNL_HEADERS, symbols));
  const costs = costRows(s);
  if (costs.length > 0) sections.push(table(COST_HEADERS, costs));
  const strategies = strategyPnlRows(s);
  if (strategies.length > 0) sections.push(table(STRATEGY_PNL_HEADERS, strategies));
  const guards = Object.entries(s.denials_by_guard);
  sections.push(
    guards.length > 0
      ? table(
          ['Guard', 'Denials'],
          guards.map(([g, n]) => [g, String(n)]),
        )
      : 'Denials: none',
  );
  const funnel = funnelRows(s);
  // The reasons column is left-aligned text: its own lines, so the counts stay a table.
  if (funnel.length > 0)
    sections.push(
      `Signal funnel\n${table(
        FUNNEL_HEADERS.slice(0, -1),
        funnel.map((r) => r.slice(0, -1)),
      )}\n${funnel.map((r) => `  ${r[0]}: ${r.at(-1) || 'no signal dropped'}`).join('\n')}`,
    );
  // Its own line, not a table cell: a long message would widen every row of the metrics table.
  const first = s.first_agent_error;
  if (first !== null) sections.push(`First agent error: ${first.agent} on ${first.symbol}: ${first.message}`);
  return `${sections.join('\n\n')}\n`;
}

export function printSummaryTable(s: RunSummary, out: { write(text: string): unknown } = process.stdout): void {
  out.write(formatSummaryTable(s));
}

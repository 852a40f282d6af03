/**
 * Renders risk-run results as Markdown: per scenario, one row per figure and one column per tree
 * (e.g. before and after issue 7), the maximum beside its limit, how the maximum came about, and the
 * event counts (denials by guard and code, venue rejections, refusals, liquidations).
 */
import type { ScenarioResult } from './risk-run.js';
import type { Figure } from './risk-figures.js';
import { int, markdownTable } from './stats.js';

export interface Column {
  label: string;
  results: ScenarioResult[];
}

const FIGURE_ROWS: Array<{ figure: Figure; name: string; limit: string }> = [
  { figure: 'symbol', name: 'largest per-symbol exposure (abs notional ÷ NAV)', limit: 'maxSymbolExposure' },
  { figure: 'net', name: 'net total exposure (abs of Σ signed notional ÷ NAV)', limit: 'maxTotalExposure' },
  { figure: 'gross', name: 'gross leverage (Σ abs notional ÷ NAV)', limit: 'maxLeverage' },
  { figure: 'margin', name: 'initial margin used ÷ NAV', limit: '' },
];

const x = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : 'n/a');
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(3)}`;

function countsText(m: Record<string, number> | undefined): string {
  const entries = Object.entries(m ?? {}).sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? '0' : entries.map(([k, v]) => `${k}: ${int(v)}`).join('; ');
}

function total(m: Record<string, number> | undefined): number {
  return Object.values(m ?? {}).reduce((a, b) => a + b, 0);
}

function rowsFor(results: Array<ScenarioResult | undefined>): string[][] {
  const cell = (f: (r: ScenarioResult) => string) => results.map((r) => (r ? f(r) : 'not run'));
  const rows: string[][] = [];
  rows.push([
    'cycles run',
    '',
    ...cell(
      (r) => `${int(r.cycles)}${r.stoppedEarly ? ' (stopped early: time budget)' : ''}, ${r.seconds.toFixed(0)} s`,
    ),
  ]);
  for (const { figure, name, limit } of FIGURE_ROWS) {
    const lim = limit ? x(results.find((r) => r)!.limits[limit]!) : '1 (venue: used ≤ equity, after issue 7)';
    rows.push([
      `max ${name}`,
      lim,
      ...cell((r) => {
        const h = r.held[figure];
        return `**${x(h.max)}**${figure === 'symbol' ? ` ${h.maxSymbol}` : ''} (cycle ${int(h.maxCycle)})`;
      }),
    ]);
    if (!limit) continue;
    rows.push([
      `… cycles over the limit; crossed by fills / by price moves; fills raised it while over`,
      '',
      ...cell((r) => {
        const h = r.held[figure];
        return `${int(h.cyclesOver)}; ${int(h.fillCrossings)} / ${int(h.priceCrossings)}; ${int(h.fillsRaisedWhileOver)}`;
      }),
    ]);
    rows.push([
      `… how the maximum came about: value when last within the limit → max, split into price moves and fills`,
      '',
      ...cell((r) => {
        const ep = r.held[figure].episode;
        return ep
          ? `${x(ep.startValue)} (cycle ${int(ep.startCycle)}) → ${x(r.held[figure].max)}: price ${signed(ep.price)}, fills ${signed(ep.fills)}`
          : 'never over the limit';
      }),
    ]);
  }
  rows.push([
    'max drawdown from peak NAV',
    x(results.find((r) => r)!.limits.maxDrawdown!),
    ...cell((r) => `**${pct(r.drawdown.max)}** (cycle ${int(r.drawdown.maxCycle)})`),
  ]);
  rows.push([
    '… cycles in drawdown breach; of those, cycles whose fills raised gross exposure',
    '',
    ...cell((r) => `${int(r.drawdown.cyclesOver)}; ${int(r.drawdown.grossAddedWhileOver)}`),
  ]);
  for (const { figure, name } of FIGURE_ROWS)
    rows.push([
      `worst case (every resting order fills): max ${name}`,
      '',
      ...cell((r) => `${x(r.worst[figure].max)} (cycle ${int(r.worst[figure].maxCycle)})`),
    ]);
  rows.push(['max resting orders', '', ...cell((r) => int(r.maxResting))]);
  rows.push([
    'lowest NAV (start 100,000); cycles with NAV < 0',
    '',
    ...cell((r) => `${int(r.minNav)}; ${int(r.navBelowZeroCycles)}`),
  ]);
  rows.push(['final NAV', '', ...cell((r) => int(r.finalNav))]);
  rows.push(['liquidations (position_liquidated)', '', ...cell((r) => int(r.counts.events?.position_liquidated ?? 0))]);
  rows.push([
    'risk_approved / order_submitted / order_filled',
    '',
    ...cell(
      (r) =>
        `${int(r.counts.events?.risk_approved ?? 0)} / ${int(r.counts.events?.order_submitted ?? 0)} / ${int(r.counts.events?.order_filled ?? 0)}`,
    ),
  ]);
  rows.push([
    'approved, then rejected by the venue (order_rejected, by reason)',
    '',
    ...cell((r) => `${int(total(r.counts.venueRejected))}: ${countsText(r.counts.venueRejected)}`),
  ]);
  rows.push(['refused by the order manager (order_refused)', '', ...cell((r) => countsText(r.counts.refused))]);
  rows.push([
    'risk denials (risk_rejected, guard/code)',
    '',
    ...cell((r) => `${int(total(r.counts.denials))}: ${countsText(r.counts.denials)}`),
  ]);
  rows.push(['orders cancelled (by reason)', '', ...cell((r) => countsText(r.counts.cancelled))]);
  return rows;
}

export function report(columns: Column[]): string {
  const names = [...new Set(columns.flatMap((c) => c.results.map((r) => r.scenario)))];
  const out: string[] = [];
  for (const name of names) {
    const results = columns.map((c) => c.results.find((r) => r.scenario === name));
    out.push(`_${results.find((r) => r)!.label}_`, '');
    out.push(markdownTable({ headers: ['figure', 'limit', ...columns.map((c) => c.label)], rows: rowsFor(results) }));
    out.push('');
    columns.forEach((c, i) => {
      for (const b of results[i]?.breachFills ?? [])
        out.push(
          `- ${c.label}: cycle ${int(b.cycle)} in drawdown breach (${(b.ddBefore * 100).toFixed(2)} % → ${(b.ddAfter * 100).toFixed(2)} %), gross raised by fills: ${b.fills.join(', ') || '(no fill line)'}`,
        );
    });
    out.push('');
  }
  return out.join('\n');
}

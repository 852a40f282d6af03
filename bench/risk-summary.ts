/**
 * One table of several risk-run results (each scenario run in its own process with RISK_RUN_OUT):
 * a column per scenario; per limit the worst figure and who took it over — the system's own fills
 * or price moves — and what the risk engine did (state changes, its own closes). Below the table,
 * the details a reader needs to check a fill crossing: the cycle, the figure before, after the price
 * move and after the fills, and the fills.
 *
 *   node bin/run-ts.mjs bench/risk-run.ts --summary a.json b.json …
 */
import { readFileSync } from 'node:fs';
import type { Figure } from './risk-figures.js';
import type { ScenarioResult } from './risk-run.js';
import { int, markdownTable } from './stats.js';

const LIMITS: Array<{ figure: Figure; name: string; limit: string }> = [
  { figure: 'symbol', name: 'per-symbol exposure', limit: 'maxSymbolExposure' },
  { figure: 'net', name: 'net exposure', limit: 'maxTotalExposure' },
  { figure: 'gross', name: 'gross leverage', limit: 'maxLeverage' },
  { figure: 'margin', name: 'initial margin ÷ NAV', limit: '' },
];

const x = (v: number) => v.toFixed(4);
const pct = (v: number) => `${(v * 100).toFixed(2)} %`;
const counts = (m: Record<string, number> | undefined) => {
  const entries = Object.entries(m ?? {}).sort((a, b) => b[1] - a[1]);
  return entries.length === 0 ? '0' : entries.map(([k, v]) => `${k}: ${int(v)}`).join('; ');
};

function rows(results: ScenarioResult[]): string[][] {
  const cell = (f: (r: ScenarioResult) => string) => results.map(f);
  const out: string[][] = [];
  out.push([
    'cycles run, wall time',
    ...cell((r) => `${int(r.cycles)}${r.stoppedEarly ? ' (stopped early)' : ''}, ${r.seconds.toFixed(0)} s`),
  ]);
  for (const { figure, name, limit } of LIMITS) {
    const lim = limit ? results[0]!.limits[limit]! : 1;
    out.push([
      `max ${name} (limit ${lim})`,
      ...cell((r) => {
        const h = r.held[figure];
        return `**${x(h.max)}**${figure === 'symbol' ? ` ${h.maxSymbol}` : ''} (cycle ${int(h.maxCycle)})`;
      }),
    ]);
    out.push([
      `… cycles over; crossed by fills (of which by their costs alone) / by price; fills raised it while over (of which by quantity)`,
      ...cell((r) => {
        const h = r.held[figure];
        return `${int(h.cyclesOver)}; ${int(h.fillCrossings)} (${int(h.fillCrossingsByCost ?? 0)}) / ${int(h.priceCrossings)}; ${int(h.fillsRaisedWhileOver)} (${int(h.qtyRaisedWhileOver ?? 0)})`;
      }),
    ]);
    out.push([
      `… most the fills raised it while over`,
      ...cell((r) => {
        const w = r.held[figure].worstRaise;
        return w ? `+${(w.after - w.mid).toExponential(1)} (cycle ${int(w.cycle)}: ${x(w.mid)} → ${x(w.after)})` : '—';
      }),
    ]);
    out.push([
      `… furthest over the limit after a fill crossing`,
      ...cell((r) => {
        const w = r.held[figure].worstFillCrossing;
        return w ? `${x(w.after)} (cycle ${int(w.cycle)}; ${x(w.mid)} before the fills)` : '—';
      }),
    ]);
  }
  out.push(['cycles over any of the four', ...cell((r) => int(r.cyclesOverAny ?? 0))]);
  const dd = (r: ScenarioResult) => r.engine?.drawdown;
  out.push([
    `max drawdown from the engine's reference (limit ${results[0]!.limits.maxDrawdown})`,
    ...cell((r) => {
      const d = dd(r);
      if (!d) return 'n/a';
      const m = d.maxCycleDetail;
      const shown = m && m.observed !== null ? `; ${pct(m.observed)} when the engine looked` : '';
      return `**${pct(d.max)}** (cycle ${int(d.maxCycle)}${shown})`;
    }),
  ]);
  out.push([
    '… the largest the engine was shown (before the cycle’s fills)',
    ...cell((r) => {
      const d = dd(r);
      if (!d) return 'n/a';
      const from = d.observedMaxPrevious === undefined ? '' : `, ${pct(d.observedMaxPrevious)} at the cycle before`;
      return `${pct(d.observedMax)} (cycle ${int(d.observedMaxCycle)}${from})`;
    }),
  ]);
  out.push([
    '… from the highest NAV of the whole run',
    ...cell((r) => `${pct(r.drawdown.max)} (cycle ${int(r.drawdown.maxCycle)})`),
  ]);
  out.push([
    '… cycles over; crossed by price (engine shown it beyond) / by the cycle’s fills',
    ...cell((r) =>
      dd(r) ? `${int(dd(r)!.cyclesOver)}; ${int(dd(r)!.priceCrossings)} / ${int(dd(r)!.fillCrossings)}` : 'n/a',
    ),
  ]);
  out.push([
    '… cycles the engine was shown a breach; of those, cycles a fill grew a position',
    ...cell((r) => (dd(r) ? `${int(dd(r)!.observedOver)}; ${int(dd(r)!.grownWhileOver)}` : 'n/a')),
  ]);
  out.push([
    '… cycles in `reducing` in which a fill grew a position',
    ...cell((r) => (dd(r) ? int(dd(r)!.grownWhileReducing) : 'n/a')),
  ]);
  out.push(['risk state transitions (risk_state_changed)', ...cell((r) => counts(r.engine?.transitions))]);
  out.push([
    '… `reducing` entered again ≤ 5 cycles after the window ended it',
    ...cell((r) => (r.engine?.quickReentries === undefined ? 'n/a' : int(r.engine.quickReentries))),
  ]);
  out.push(['cycles by risk state (as the engine answered the cycle)', ...cell((r) => counts(r.engine?.stateCycles))]);
  out.push([
    'engine closes (`rsk-…`): approved / submitted / orders filled (fill lines); denied',
    ...cell((r) => {
      const c = r.engine?.closes;
      return c
        ? `${int(c.approved)} / ${int(c.submitted)} / ${int(c.filledOrders)} (${int(c.fills)}); ${counts(c.denied)}`
        : 'n/a';
    }),
  ]);
  out.push([
    'risk_approved / order_filled',
    ...cell((r) => `${int(r.counts.events?.risk_approved ?? 0)} / ${int(r.counts.events?.order_filled ?? 0)}`),
  ]);
  out.push(['risk denials (guard/code)', ...cell((r) => counts(r.counts.denials))]);
  out.push([
    'venue rejections; refusals; liquidations',
    ...cell(
      (r) =>
        `${counts(r.counts.venueRejected)}; ${counts(r.counts.refused)}; ${int(r.counts.events?.position_liquidated ?? 0)}`,
    ),
  ]);
  out.push(['lowest NAV; final NAV (start 100,000)', ...cell((r) => `${int(r.minNav)}; ${int(r.finalNav)}`)]);
  return out;
}

function details(r: ScenarioResult): string[] {
  const out: string[] = [];
  for (const { figure, name } of LIMITS) {
    const w = r.held[figure].worstFillCrossing;
    if (!w) continue;
    out.push(
      `- ${r.scenario}: ${name} crossed by fills ${int(r.held[figure].fillCrossings)} times; furthest: cycle ${int(w.cycle)}, ${x(w.before)} at the last cycle's end → ${x(w.mid)} after the price move → ${x(w.after)} after the fills: ${w.fills.map((f) => f.split('\t')[1]).join(', ')}`,
    );
  }
  for (const { figure, name } of LIMITS)
    for (const e of r.held[figure].fillsRaisedExamples ?? [])
      out.push(
        `- ${r.scenario}: ${name} over the limit after the price move, raised by the cycle's fills: cycle ${int(e.cycle)}, ${x(e.before)} → ${x(e.mid)} → ${x(e.after)}${e.symbol ? ` (${e.symbol})` : ''}: ${e.fills.map((f) => f.split('\t')[1]).join(', ')}`,
      );
  const d = r.engine?.drawdown;
  const m = d?.maxCycleDetail;
  if (d && m && m.observed !== null)
    out.push(
      `- ${r.scenario}: max drawdown, cycle ${int(d.maxCycle)}: ${pct(m.previous)} at the cycle before → ${pct(m.observed)} after the price move, when the engine looked (state ${m.state}) → ${pct(d.max)} after the cycle's fills: ${m.fills.map((f) => f.split('\t')[1]).join(', ') || 'none'}`,
    );
  if (d?.worstFillCrossing)
    out.push(
      `- ${r.scenario}: drawdown crossed by the cycle's fills ${int(d.fillCrossings)} times; furthest: cycle ${int(d.worstFillCrossing.cycle)}, ${pct(d.worstFillCrossing.observed)} when the engine looked → ${pct(d.worstFillCrossing.after)} after: ${d.worstFillCrossing.fills.map((f) => f.split('\t')[1]).join(', ')}`,
    );
  for (const g of d?.grownExamples ?? [])
    out.push(
      `- ${r.scenario}: cycle ${int(g.cycle)}, engine shown ${pct(g.observed)} in state ${g.state}, position grown: ${g.grown.join(', ')}; fills: ${g.fills.map((f) => f.split('\t')[1]).join(', ')}`,
    );
  for (const t of (r.engine?.transitionLog ?? []).slice(0, 6))
    out.push(`- ${r.scenario}: cycle ${int(t.cycle)} ${t.change}: ${t.reason}`);
  return out;
}

export function summary(results: ScenarioResult[]): string {
  const table = markdownTable({
    headers: ['', ...results.map((r) => `${r.scenario}: ${r.label}`)],
    rows: rows(results),
  });
  return [table, '', ...results.flatMap(details)].join('\n');
}

/** Prints the summary of the result files (risk-run.ts --summary FILE…). */
export function printSummary(files: string[]): void {
  if (files.length === 0) throw new Error('usage: risk-run.ts --summary FILE.json [FILE.json …]');
  console.log(summary(files.flatMap((f) => JSON.parse(readFileSync(f, 'utf8')) as ScenarioResult[])));
}

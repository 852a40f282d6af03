/**
 * What `tcs strategy check` prints: per strategy one row per check (verdict, the first bar where the
 * bias shows, what the full run answered there and what the other run answered), or the same as
 * one JSON document with --json (answers as objects, times as ISO strings).
 */
import { describeOutcome } from './compare.js';
import { describeReading } from './indicator-readings.js';
import type { CheckResult, Finding } from './run-check.js';

const WHAT = {
  determinism: 'the same full run twice',
  'look-ahead': 'runs on data cut at sampled bars',
  recursion: 'fresh agents started at sampled bars with more and less history',
  indicators: 'the declared indicators of those fresh agents, value by value',
} as const;

export function checkTable(result: CheckResult): string {
  const lines = [
    `Tolerance: ${result.tolerance} (confidence; relative on a target; times its range on an indicator)`,
    '',
  ];
  for (const s of result.strategies) {
    lines.push(
      `${s.name} (${s.entry}): ${s.cycles} cycles, ${s.signals} signals, ${s.samples.length} sampled bars, window ${s.window} bars (recursion also ${s.longWindow})`,
      `  market: ${s.market}`,
    );
    const rows = s.findings.map((f) => row(f));
    const header = ['check', 'verdict', 'first bar', 'symbol', 'full run', 'other run'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const fmt = (cells: string[]) =>
      cells
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd();
    lines.push(`  ${fmt(header)}`, ...rows.map((r) => `  ${fmt(r)}`));
    for (const f of s.findings) {
      const other = f.first?.other ?? f.indicator?.other;
      if (other !== undefined) lines.push(`  ${f.check}: compared with ${WHAT[f.check]}; the other run: ${other}`);
      if (f.verdict === 'n/a')
        lines.push(`  ${f.check}: none declared through trackIndicators, so only the signals were compared`);
      if (f.dataFiles !== undefined)
        lines.push(
          `  ${f.check}: the strategy read the data directory itself (${f.dataFiles.join(', ')}): every bar in it, the future included, was within its reach; read only the snapshot`,
        );
    }
    for (const note of s.notes) lines.push(`  note: ${note}`);
    lines.push('');
  }
  lines.push(
    result.bias
      ? 'Bias found: a check marked BIAS saw the strategy depend on data it should not (docs/strategies/checking-a-strategy.md).'
      : 'No bias found.',
  );
  return lines.join('\n');
}

function row(f: Finding): string[] {
  if (f.indicator !== undefined) {
    const { barTime, symbol, indicator, label, a, b } = f.indicator;
    return [
      f.check,
      'BIAS',
      new Date(barTime).toISOString(),
      symbol,
      describeReading(indicator, label, a),
      describeReading(indicator, label, b),
    ];
  }
  if (f.first === undefined) return [f.check, f.verdict === 'bias' ? 'BIAS' : f.verdict, '', '', '', ''];
  const { barTime, symbol, a, b } = f.first;
  return [
    f.check,
    'BIAS',
    barTime === null ? `cycle ${f.first.cycle}` : new Date(barTime).toISOString(),
    symbol,
    describeOutcome(a),
    describeOutcome(b),
  ];
}

export function checkJson(result: CheckResult): string {
  return JSON.stringify(
    {
      tolerance: result.tolerance,
      bias: result.bias,
      strategies: result.strategies.map((s) => ({
        ...s,
        findings: s.findings.map((f) => withDataFiles(f, findingJson(f))),
      })),
    },
    null,
    2,
  );
}

/** The files of the data directory the strategy read (look-ahead), under a snake_case key as the rest. */
function withDataFiles(f: Finding, json: object): object {
  if (f.dataFiles === undefined) return json;
  const { dataFiles: _, ...rest } = json as Finding;
  return { ...rest, data_files: f.dataFiles };
}

function findingJson(f: Finding): object {
  return f.indicator !== undefined
    ? {
        check: f.check,
        verdict: f.verdict,
        readings: f.readings,
        first: {
          cycle: f.indicator.cycle,
          bar: new Date(f.indicator.barTime).toISOString(),
          symbol: f.indicator.symbol,
          indicator: f.indicator.indicator,
          label: f.indicator.label,
          full: f.indicator.a,
          other: f.indicator.b,
          otherRun: f.indicator.other,
        },
      }
    : f.first === undefined
      ? f
      : {
          check: f.check,
          verdict: f.verdict,
          first: {
            cycle: f.first.cycle,
            bar: f.first.barTime === null ? null : new Date(f.first.barTime).toISOString(),
            symbol: f.first.symbol,
            full: f.first.a,
            other: f.first.b,
            otherRun: f.first.other,
          },
        };
}

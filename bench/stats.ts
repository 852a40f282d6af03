/**
 * Percentiles and small formatting helpers shared by the benchmarks. Percentiles use the
 * nearest-rank method on the sorted samples (no interpolation), so a p99 is always a value that was
 * actually observed.
 */

export interface Summary {
  n: number;
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Nearest-rank percentile of already sorted samples; `p` in [0, 100]. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, v) => acc + v, 0);
  return {
    n: sorted.length,
    min: sorted[0] ?? Number.NaN,
    mean: sorted.length > 0 ? sum / sorted.length : Number.NaN,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Milliseconds with a precision that suits the magnitude. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value < 10) return `${value.toFixed(2)} ms`;
  if (value < 100) return `${value.toFixed(1)} ms`;
  return `${Math.round(value)} ms`;
}

export function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function int(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
}

/** A table as a benchmark returns it: rendered as Markdown by run-all and on stdout. */
export interface Table {
  headers: string[];
  rows: string[][];
}

/** Padded as prettier pads a Markdown table, so output pasted into BENCHMARKS.md stays formatted. */
export function markdownTable(table: Table): string {
  const widths = table.headers.map((h, i) =>
    Math.max(3, [...h].length, ...table.rows.map((r) => [...(r[i] ?? '')].length)),
  );
  const pad = (cell: string, i: number) => cell + ' '.repeat(widths[i]! - [...cell].length);
  const line = (cells: string[]) => `| ${cells.map(pad).join(' | ')} |`;
  return [line(table.headers), line(widths.map((w) => '-'.repeat(w))), ...table.rows.map(line)].join('\n');
}

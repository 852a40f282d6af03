/**
 * The one error a data directory raises: it names the file (relative to the directory, as the
 * operator sees it in `ls`) and, when a row is at fault, the line (CSV) or row (Parquet), so a bad
 * download can be found and fixed by hand. Timestamps in messages are printed as epoch ms and ISO.
 */
export class DataFileError extends Error {
  override readonly name = 'DataFileError';
  constructor(
    /** Path relative to the data directory, e.g. candles/BTCUSDT.csv; '' for the directory itself. */
    readonly file: string,
    /** What is wrong, already prefixed with "line N: " or "row N: " when a row is at fault. */
    readonly detail: string,
  ) {
    super(file === '' ? detail : /^(line|row) \d/.test(detail) ? `${file} ${detail}` : `${file}: ${detail}`);
  }
}

/** `1704153600000 (2024-01-02T00:00:00.000Z)`: the raw value the file holds and what it means. */
export function showTs(ts: number): string {
  return `${ts} (${iso(ts)})`;
}

/** ISO-8601 UTC, or a plain note for a value no Date can hold. */
export function iso(ts: number): string {
  const date = new Date(ts);
  return Number.isNaN(date.getTime()) ? 'not a valid time' : date.toISOString();
}

/**
 * An append-only CSV file written while the run goes: rows are buffered and written with one
 * synchronous write per batch, so a 500,000-cycle run never holds its rows in memory, never waits
 * on back-pressure, and a run stopped with Ctrl-C still leaves every row up to its last flush.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const BATCH_ROWS = 1024;

/** RFC 4180 quoting, only where a field needs it (never a number: it is the hot path). */
function field(value: string | number): string {
  if (typeof value === 'number') return String(value);
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export class CsvFile {
  private readonly fd: number;
  private pending: string[] = [];
  private closed = false;

  constructor(
    readonly path: string,
    private readonly columns: readonly string[],
    /** Rows per write (BATCH_ROWS by default). */
    private readonly batchRows = BATCH_ROWS,
  ) {
    this.fd = openSync(path, 'w');
    writeSync(this.fd, `${columns.join(',')}\n`);
  }

  row(values: readonly (string | number)[]): void {
    if (this.closed) throw new Error(`${this.path}: row after close`);
    if (values.length !== this.columns.length) {
      throw new Error(`${this.path}: ${values.length} fields for ${this.columns.length} columns`);
    }
    let line = field(values[0]!);
    for (let i = 1; i < values.length; i++) line += `,${field(values[i]!)}`;
    this.pending.push(`${line}\n`);
    if (this.pending.length >= this.batchRows) this.flush();
  }

  /**
   * The per-cycle path of equity.csv: a timestamp then numbers, none of which can need quoting
   * (an ISO time has no comma or quote), so no field is tested or copied into an array.
   */
  numericRow(isoTs: string, ...numbers: number[]): void {
    if (this.closed) throw new Error(`${this.path}: row after close`);
    if (numbers.length + 1 !== this.columns.length) {
      throw new Error(`${this.path}: ${numbers.length + 1} fields for ${this.columns.length} columns`);
    }
    let line = isoTs;
    for (const n of numbers) line += `,${n}`;
    this.pending.push(`${line}\n`);
    if (this.pending.length >= this.batchRows) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    closeSync(this.fd);
    this.closed = true;
  }
}

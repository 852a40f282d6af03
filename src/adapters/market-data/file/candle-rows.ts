/**
 * One symbol's candles as a replay reads them: one row at a time, by index. A CSV file is read from
 * disk row by row as the replay reaches it (its index, built when the feed opens, keeps only where
 * each row starts), so the process holds no candle the replay has not reached: a strategy module
 * that patches globals or prototypes finds no future bars to capture (issue 34, item 1). A Parquet
 * file is decoded by column groups, so it stays loaded whole (./parquet-reader.ts) and is read here
 * from memory.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parseFields } from './csv-reader.js';
import { DataFileError, showTs } from './data-errors.js';
import type { CandleSeries, CandleSpan } from './series.js';
import { Float64ArrayIntrinsic } from '../../../domain/intrinsics.js';

export interface CandleRows extends CandleSpan {
  /** Candle i into `out`: [open, high, low, close, volume]. */
  read(i: number, out: Float64Array): void;
  /** Releases the file (a no-op for candles in memory). */
  close(): void;
}

/** A CSV candle file's rows: validated when indexed, where each one starts (count + 1 offsets, the last the end). */
export interface CsvCandleIndex extends CandleSpan {
  rowStart: Float64Array;
}

export function seriesRows(series: CandleSeries): CandleRows {
  return {
    get start() {
      return series.start;
    },
    get stepMs() {
      return series.stepMs;
    },
    set stepMs(stepMs: number) {
      series.stepMs = stepMs;
    },
    get count() {
      return series.count;
    },
    read(i, out) {
      out[0] = series.open[i]!;
      out[1] = series.high[i]!;
      out[2] = series.low[i]!;
      out[3] = series.close[i]!;
      out[4] = series.volume[i]!;
    },
    close() {},
  };
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Reads the rows of an indexed CSV file as they are asked for, one `pread` each. A row that no
 * longer parses, or no longer holds the candle its index says (the file changed after it was
 * checked), is refused by file and line rather than replayed as something else.
 */
export function csvRows(path: string, file: string, index: CsvCandleIndex): CandleRows {
  const fd = openSync(path, 'r');
  let bytes = Buffer.alloc(256);
  const fields = new Float64ArrayIntrinsic(6);
  const fault = new Float64ArrayIntrinsic(3);
  let closed = false;
  const rows: CandleRows = {
    start: index.start,
    stepMs: index.stepMs,
    count: index.count,
    read(i, out) {
      const from = index.rowStart[i]!;
      let length = index.rowStart[i + 1]! - from;
      if (length > bytes.length) bytes = Buffer.alloc(2 * length);
      const got = readSync(fd, bytes, 0, length, from);
      while (length > 0 && (bytes[length - 1] === NEWLINE || bytes[length - 1] === CR)) length -= 1;
      const line = i + 2; // line 1 is the header
      const changed = (what: string): never => {
        throw new DataFileError(file, `line ${line}: changed since the replay opened the file (${what})`);
      };
      if (got < length) changed('it is shorter now');
      if (parseFields(bytes, 0, length, fields, fault) !== 6 || fault[0] !== -1) changed('it no longer parses');
      const expected = rows.start + i * rows.stepMs;
      if (fields[0] !== expected) changed(`timestamp ${showTs(fields[0]!)} where ${showTs(expected)} was`);
      for (let k = 0; k < 5; k++) out[k] = fields[k + 1]!;
    },
    close() {
      if (closed) return;
      closed = true;
      closeSync(fd);
    },
  };
  return rows;
}

/**
 * Reads the Parquet files of a data directory through hyparquet (pure JavaScript, no native
 * build). The file must carry the format's column names with the format's types: timestamp INT64
 * (plain, or TIMESTAMP in milliseconds), the others DOUBLE. Extra columns (a writer's index
 * column, say) are ignored. Rows go through the same builders as CSV rows, so errors read the
 * same, with "row N" (1 = the first row) in place of "line N".
 */
import { readFile } from 'node:fs/promises';
import { parquetMetadata, parquetRead, parquetSchema } from 'hyparquet';
import type { FileMetaData, SchemaElement } from 'hyparquet';
import { DataFileError } from './data-errors.js';
import { CANDLE_COLUMNS, FUNDING_COLUMNS } from './csv-reader.js';
import { CandleBuilder, FundingBuilder } from './series.js';
import type { CandleSeries, FundingSeries } from './series.js';
import { Float64ArrayIntrinsic } from '../../../domain/intrinsics.js';

const atRow = (i: number): string => `row ${i + 1}`;

function describeType(e: SchemaElement): string {
  const logical = e.logical_type ? ` ${JSON.stringify(e.logical_type)}` : '';
  return `${e.type ?? 'group'}${e.converted_type ? ` ${e.converted_type}` : ''}${logical}`;
}

function isMillisTimestamp(e: SchemaElement): boolean {
  if (e.type !== 'INT64') return false;
  if (e.converted_type === 'TIMESTAMP_MICROS') return false;
  const logical = e.logical_type;
  if (logical?.type === 'TIMESTAMP') return logical.unit === 'MILLIS';
  return logical === undefined || logical.type === 'INTEGER';
}

/** Checks the names and types of the columns the format needs. */
function checkSchema(file: string, metadata: FileMetaData, columns: readonly string[]): void {
  const children = parquetSchema(metadata).children.map((c) => c.element);
  for (const name of columns) {
    const element = children.find((e) => e.name === name);
    if (element === undefined) {
      throw new DataFileError(file, `missing column "${name}" (columns: ${children.map((e) => e.name).join(', ')})`);
    }
    const ok = name === 'timestamp' ? isMillisTimestamp(element) : element.type === 'DOUBLE';
    if (!ok) {
      const want = name === 'timestamp' ? 'INT64 epoch milliseconds (or TIMESTAMP millis)' : 'DOUBLE';
      throw new DataFileError(file, `column "${name}" is ${describeType(element)}, expected ${want}`);
    }
  }
}

/** The named columns as plain numbers (NaN for a null), in file order. */
async function readColumns(
  path: string,
  file: string,
  columns: readonly string[],
): Promise<{ rows: number; data: Float64Array[] }> {
  const bytes = await readFile(path);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(buffer);
  } catch (err) {
    throw new DataFileError(file, `not a readable Parquet file: ${(err as Error).message}`);
  }
  checkSchema(file, metadata, columns);
  const rows = Number(metadata.num_rows);
  const data = columns.map(() => new Float64ArrayIntrinsic(rows));
  const nulls = columns.map(() => -1);
  try {
    await parquetRead({
      file: buffer,
      metadata,
      columns: [...columns],
      // Milliseconds stay numbers: a Date per row would cost time and memory for nothing.
      parsers: { timestampFromMilliseconds: (ms: bigint) => Number(ms) },
      onChunk({ columnName, columnData, rowStart }) {
        const k = columns.indexOf(columnName);
        const into = data[k]!;
        for (let i = 0; i < columnData.length && rowStart + i < rows; i++) {
          const v: unknown = columnData[i];
          if (v === null || v === undefined) {
            if (nulls[k] === -1 || rowStart + i < nulls[k]!) nulls[k] = rowStart + i;
            into[rowStart + i] = NaN;
          } else into[rowStart + i] = typeof v === 'bigint' ? Number(v) : (v as number);
        }
      },
    });
  } catch (err) {
    throw new DataFileError(file, `not a readable Parquet file: ${(err as Error).message}`);
  }
  // Report the earliest null of any column, as a row error like the others.
  let first = -1;
  let column = '';
  nulls.forEach((at, k) => {
    if (at !== -1 && (first === -1 || at < first)) [first, column] = [at, columns[k]!];
  });
  if (first !== -1) throw new DataFileError(file, `${atRow(first)}: ${column} is null`);
  return { rows, data };
}

export async function readCandlesParquet(
  path: string,
  file: string,
  stepMs: number | undefined,
): Promise<CandleSeries> {
  const { rows, data } = await readColumns(path, file, CANDLE_COLUMNS);
  const [ts, open, high, low, close, volume] = data as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  const builder = new CandleBuilder(file, atRow, stepMs, rows);
  for (let i = 0; i < rows; i++) builder.push(i, ts[i]!, open[i]!, high[i]!, low[i]!, close[i]!, volume[i]!);
  return builder.finish();
}

export async function readFundingParquet(path: string, file: string): Promise<FundingSeries> {
  const { rows, data } = await readColumns(path, file, FUNDING_COLUMNS);
  const [ts, rate] = data as [Float64Array, Float64Array];
  const builder = new FundingBuilder(file, atRow);
  for (let i = 0; i < rows; i++) builder.push(i, ts[i]!, rate[i]!);
  return builder.finish();
}

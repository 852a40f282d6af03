/**
 * Finds and loads the files of a data directory: candles/<SYMBOL>.csv|.parquet (required),
 * funding/<SYMBOL>.csv|.parquet (optional) and manifest.json (optional), and checks what no
 * single file can: one timeframe across all symbols, no symbol in two formats, no funding without
 * candles, no stray files (a name that is not SYMBOL.csv or SYMBOL.parquet is refused rather than
 * skipped, so a typo never silently drops a symbol; names starting with "." are ignored, for
 * temporary files).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { indexCandlesCsv, readCandlesCsv, readFundingCsv } from './csv-reader.js';
import { DataFileError } from './data-errors.js';
import { readManifest } from './manifest.js';
import type { Manifest } from './manifest.js';
import { readCandlesParquet, readFundingParquet } from './parquet-reader.js';
import type { CandleSeries, CandleSpan, FundingSeries } from './series.js';
import { csvRows, seriesRows } from './candle-rows.js';
import type { CandleRows } from './candle-rows.js';
import { timeframeName } from '../../../domain/timeframes.js';

export interface SymbolData<C extends CandleSpan = CandleSeries> {
  symbol: string;
  candleFile: string;
  candles: C;
  fundingFile?: string;
  funding?: FundingSeries;
}

export interface DataDirectory<C extends CandleSpan = CandleSeries> {
  dir: string;
  manifest?: Manifest;
  /** The shared timeframe, e.g. 1m, and its length in ms. */
  timeframe: string;
  stepMs: number;
  /** In the order asked for (or sorted by symbol when loading everything). */
  symbols: SymbolData<C>[];
}

type Kind = 'candles' | 'funding';
const FILE_NAME = /^([A-Z0-9]{2,20})\.(csv|parquet)$/;

/** symbol → relative path, for one sub-directory; `required` says whether it may be missing. */
async function listFiles(dir: string, kind: Kind, required: boolean): Promise<Map<string, string>> {
  let names: string[];
  try {
    names = await readdir(join(dir, kind));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return new Map();
    if (code === 'ENOENT') {
      throw new DataFileError(
        `${kind}/`,
        `missing: a data directory holds ${kind}/<SYMBOL>.csv or ${kind}/<SYMBOL>.parquet`,
      );
    }
    throw new DataFileError(`${kind}/`, `cannot be read: ${(err as Error).message}`);
  }
  const files = new Map<string, string>();
  for (const name of names.sort()) {
    if (name.startsWith('.')) continue;
    const match = FILE_NAME.exec(name);
    if (match === null) {
      throw new DataFileError(
        `${kind}/${name}`,
        'not a data file: names are SYMBOL.csv or SYMBOL.parquet, SYMBOL in upper-case letters and digits',
      );
    }
    const symbol = match[1]!;
    const other = files.get(symbol);
    if (other !== undefined)
      throw new DataFileError(`${kind}/${name}`, `${symbol} is also in ${other}: keep one format per symbol`);
    files.set(symbol, `${kind}/${name}`);
  }
  if (required && files.size === 0)
    throw new DataFileError(`${kind}/`, 'holds no <SYMBOL>.csv or <SYMBOL>.parquet file');
  return files;
}

async function readCandles(dir: string, file: string, stepMs: number | undefined): Promise<CandleSeries> {
  const path = join(dir, file);
  return file.endsWith('.csv') ? readCandlesCsv(path, file, stepMs) : readCandlesParquet(path, file, stepMs);
}

/** A symbol's candles to replay: a CSV file indexed (read row by row later), a Parquet file loaded. */
async function openCandleRows(dir: string, file: string, stepMs: number | undefined): Promise<CandleRows> {
  const path = join(dir, file);
  if (!file.endsWith('.csv')) return seriesRows(await readCandlesParquet(path, file, stepMs));
  return csvRows(path, file, await indexCandlesCsv(path, file, stepMs));
}

async function readFunding(dir: string, file: string): Promise<FundingSeries> {
  const path = join(dir, file);
  return file.endsWith('.csv') ? readFundingCsv(path, file) : readFundingParquet(path, file);
}

/**
 * Loads and validates `symbols` (every symbol with a candle file when omitted). Throws a
 * DataFileError naming the file (and line) of the first problem.
 */
export function loadDataDir(dir: string, symbols?: readonly string[]): Promise<DataDirectory> {
  return openDataDir(dir, symbols, readCandles);
}

/**
 * Validates `symbols` as loadDataDir does, for a replay: CSV candles are indexed, not kept, and read
 * row by row as the replay reaches them (./candle-rows.ts); the caller closes them when done.
 */
export async function indexDataDir(dir: string, symbols?: readonly string[]): Promise<DataDirectory<CandleRows>> {
  const opened: CandleRows[] = [];
  try {
    return await openDataDir(dir, symbols, async (d, file, stepMs) => {
      const rows = await openCandleRows(d, file, stepMs);
      opened.push(rows);
      return rows;
    });
  } catch (err) {
    for (const rows of opened) rows.close();
    throw err;
  }
}

async function openDataDir<C extends CandleSpan>(
  dir: string,
  symbols: readonly string[] | undefined,
  readCandles: (dir: string, file: string, stepMs: number | undefined) => Promise<C>,
): Promise<DataDirectory<C>> {
  const manifest = await readManifest(dir);
  const candleFiles = await listFiles(dir, 'candles', true);
  const fundingFiles = await listFiles(dir, 'funding', false);
  for (const [symbol, file] of fundingFiles) {
    if (!candleFiles.has(symbol))
      throw new DataFileError(file, `funding without candles: candles/${symbol}.csv or .parquet is missing`);
    const declared = manifest?.instruments.find((i) => i.symbol === symbol);
    if (declared?.kind === 'spot')
      throw new DataFileError(file, `${symbol} is spot in manifest.json; funding is for perpetuals only`);
  }
  if (symbols === undefined) {
    for (const instrument of manifest?.instruments ?? []) {
      if (!candleFiles.has(instrument.symbol)) {
        throw new DataFileError(
          'manifest.json',
          `lists ${instrument.symbol}, but candles/${instrument.symbol}.csv or .parquet is missing`,
        );
      }
    }
  }
  const wanted = symbols ?? [...candleFiles.keys()];
  const loaded: SymbolData<C>[] = [];
  let stepMs = manifest?.stepMs;
  let stepFile = 'manifest.json';
  for (const symbol of wanted) {
    const candleFile = candleFiles.get(symbol);
    if (candleFile === undefined) {
      throw new DataFileError(
        'candles/',
        `has no file for ${symbol} (expected candles/${symbol}.csv or candles/${symbol}.parquet)`,
      );
    }
    // Without a manifest each file infers its own timeframe, so a mismatch is named as one, not as a gap.
    const candles = await readCandles(dir, candleFile, manifest?.stepMs);
    if (candles.stepMs !== 0 && stepMs === undefined) {
      stepMs = candles.stepMs;
      stepFile = candleFile;
    } else if (candles.stepMs !== 0 && candles.stepMs !== stepMs) {
      throw new DataFileError(
        candleFile,
        `timeframe ${timeframeName(candles.stepMs)} differs from ${timeframeName(stepMs!)} of ${stepFile}: all symbols share one timeframe`,
      );
    }
    const fundingFile = fundingFiles.get(symbol);
    const data: SymbolData<C> = { symbol, candleFile, candles };
    if (fundingFile !== undefined) Object.assign(data, { fundingFile, funding: await readFunding(dir, fundingFile) });
    loaded.push(data);
  }
  if (stepMs === undefined) {
    throw new DataFileError(
      '',
      `${dir}: every candle file holds a single candle, so the timeframe is unknown; give it in manifest.json`,
    );
  }
  for (const s of loaded) s.candles.stepMs = stepMs;
  return { dir, ...(manifest ? { manifest } : {}), timeframe: timeframeName(stepMs)!, stepMs, symbols: loaded };
}

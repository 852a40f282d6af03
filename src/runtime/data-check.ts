/**
 * `tcs data check <dir>`: validates a whole data directory (every file, every row, the manifest)
 * and prints its coverage per symbol as a table, so an operator knows what a simulation over it
 * can cover before starting one. Exit 0 when valid, 1 naming the first error (file and line; also
 * a perpetual without funding rates, as the replay refuses it), 2 when the directory does not exist.
 */
import { stat } from 'node:fs/promises';
import { assertPerpetualsFunded, DataFileError, loadDataDir } from '../adapters/market-data/file/index.js';
import type { DataDirectory } from '../adapters/market-data/file/index.js';

const iso = (ts: number): string => new Date(ts).toISOString();

export async function checkDataDir(dir: string): Promise<number> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) {
    console.error(`tcs data check: ${dir} is not a directory\nUsage: tcs data check <dir>`);
    return 2;
  }
  let data: DataDirectory;
  try {
    data = await loadDataDir(dir);
    assertPerpetualsFunded(data);
  } catch (err) {
    if (!(err instanceof DataFileError)) throw err;
    console.error(`invalid: ${err.message}`);
    return 1;
  }
  console.log(coverageTable(data));
  return 0;
}

/** One row per symbol: what it holds and over which period. */
function coverageTable(data: DataDirectory): string {
  const declared = new Map(data.manifest?.instruments.map((i) => [i.symbol, i.kind]));
  const header = [
    'symbol',
    'kind',
    'timeframe',
    'first candle',
    'last candle',
    'candles',
    'funding',
    'first funding',
    'last funding',
  ];
  const rows = data.symbols.map((s) => {
    const { start, count } = s.candles;
    const f = s.funding;
    const hasFunding = f !== undefined && f.count > 0;
    return [
      s.symbol,
      declared.get(s.symbol) ?? 'perp', // undeclared: a perpetual, as SYMBOLS would take it (and checked so)
      data.timeframe,
      iso(start),
      iso(start + (count - 1) * data.stepMs),
      String(count),
      String(f?.count ?? 0),
      hasFunding ? iso(f.ts[0]!) : '-',
      hasFunding ? iso(f.ts[f.count - 1]!) : '-',
    ];
  });
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => r[k]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, k) => c.padEnd(widths[k]!))
      .join('  ')
      .trimEnd();
  const source = data.manifest?.exchange ? `, from ${data.manifest.exchange}` : '';
  const notes = [`${data.dir}: valid, ${data.symbols.length} symbol(s), timeframe ${data.timeframe}${source}`];
  if (data.manifest === undefined)
    notes.push('no manifest.json: every symbol taken as a perpetual (declare spot ones in manifest.json)');
  return [...notes, '', line(header), ...rows.map(line)].join('\n');
}

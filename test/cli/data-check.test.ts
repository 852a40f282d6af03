/**
 * `tcs data check` as a user runs it (the real command, as a child process): the coverage table
 * and exit 0 on a valid directory, exit 1 naming file and line (or row) on a bad one, exit 2 with a
 * usage line on bad arguments, and help for the `data` command.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startTcs } from '../support/processes.js';
import {
  CANDLE_HEADER,
  FUNDING_HEADER,
  candleParquet,
  candles,
  csv,
  tempDirs,
} from '../adapters/market-data/file/data-dirs.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/market-data/${name}`, import.meta.url));

async function run(args: string[]) {
  const proc = startTcs(args, {});
  const { code } = await proc.exited;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

describe('tcs data check', () => {
  it('prints the coverage per symbol of a valid directory and exits 0', async () => {
    const res = await run(['data', 'check', fixture('good')]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('valid, 2 symbol(s), timeframe 1m, from binanceusdm');
    const lines = res.stdout.split('\n');
    expect(lines.find((l) => l.startsWith('BTCUSDT'))?.split(/\s{2,}/)).toEqual([
      'BTCUSDT',
      'perp',
      '1m',
      '2024-01-01T00:00:00.000Z',
      '2024-01-01T00:09:00.000Z',
      '10',
      '2',
      '2023-12-31T16:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
    ]);
    expect(lines.find((l) => l.startsWith('ETHUSDT'))?.split(/\s{2,}/)).toEqual([
      'ETHUSDT',
      'spot',
      '1m',
      '2024-01-01T00:00:00.000Z',
      '2024-01-01T00:09:00.000Z',
      '10',
      '0',
      '-',
      '-',
    ]);
  });

  it('exits 1 naming the file and line of the first error, or the Parquet row', async () => {
    const res = await run(['data', 'check', fixture('gap')]);
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(
      'invalid: candles/BTCUSDT.csv line 6: gap: expected timestamp 1704067440000 (2024-01-01T00:04:00.000Z), ' +
        'got 1704067500000 (2024-01-01T00:05:00.000Z) (1 candle missing)',
    );
    expect(res.stdout).toBe('');
    const rows = candles(5);
    rows[3]![0] = rows[2]![0];
    const dir = dirs.make({ 'candles/SOLUSDT.parquet': candleParquet(rows) });
    const pq = await run(['data', 'check', dir]);
    expect(pq.code).toBe(1);
    expect(pq.stderr).toMatch(/^invalid: candles\/SOLUSDT\.parquet row 4: duplicate: timestamp 1704067320000/);
  });

  it('refuses a perpetual without funding rates as the replay does, naming the file and the fix; spot passes', async () => {
    const btc = csv(CANDLE_HEADER, candles(5));
    // No manifest: every symbol is a perpetual, the default kind of SYMBOLS.
    for (const files of [{}, { 'funding/BTCUSDT.csv': `${FUNDING_HEADER}\n` }] as Record<string, string>[]) {
      const res = await run(['data', 'check', dirs.make({ 'candles/BTCUSDT.csv': btc, ...files })]);
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr.trim()).toBe(
        'invalid: funding/BTCUSDT.csv: BTCUSDT is a perpetual but its funding rates are missing: add them ' +
          '(tcs data download writes them), or trade it as spot (declare "kind": "spot" for BTCUSDT in ' +
          'manifest.json, or SYMBOLS=BTCUSDT:spot)',
      );
    }
    const manifest = (kind: string) =>
      JSON.stringify({ format: 1, instruments: { BTCUSDT: { kind, lotSize: 0.001, tickSize: 0.1, minNotional: 5 } } });
    const perp = await run([
      'data',
      'check',
      dirs.make({ 'candles/BTCUSDT.csv': btc, 'manifest.json': manifest('perp') }),
    ]);
    expect(perp.code).toBe(1);
    expect(perp.stderr).toMatch(/^invalid: funding\/BTCUSDT\.csv: BTCUSDT is a perpetual/);
    const spot = await run([
      'data',
      'check',
      dirs.make({ 'candles/BTCUSDT.csv': btc, 'manifest.json': manifest('spot') }),
    ]);
    expect(spot.stderr).toBe('');
    expect(spot.code).toBe(0);
    expect(
      spot.stdout
        .split('\n')
        .find((l) => l.startsWith('BTCUSDT'))
        ?.split(/\s{2,}/)[1],
    ).toBe('spot');
  });

  it('exits 2 with a usage line on bad arguments, and answers --help', async () => {
    for (const args of [
      ['data', 'check'],
      ['data', 'check', '--deep', fixture('good')],
      ['data', 'check', '/nonexistent/tcs-data'],
      ['data'],
    ]) {
      const res = await run(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(/Usage: tcs data/);
    }
    const download = await run(['data', 'download']);
    expect(download.code).toBe(2);
    expect(download.stderr).toContain('--exchange is required');
    const help = await run(['data', 'check', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: tcs data <check\|download>/);
    expect(help.stdout).toContain('download');
    // The subcommand's own help, not the command's.
    const downloadHelp = await run(['data', 'download', '--help']);
    expect(downloadHelp.code).toBe(0);
    expect(downloadHelp.stdout).toMatch(/^Usage: tcs data download --exchange ID/);
  });
});

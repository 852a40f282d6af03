/**
 * `tcs strategy check` as a user runs it (the real command, as a child process, issue 34 item 2): a
 * strategy that reads the next bar is flagged as look-ahead and one whose EMA is seeded from the
 * first bar it is handed as recursive bias, each with the first bar and both answers, exit 1; their
 * honest twin passes, exit 0; a strategy or data that cannot be used is exit 2 with a clear message.
 * The built-ins are in strategy-check-builtins.test.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';
import { CANDLE_HEADER, csv, MIN, T0, tempDirs } from '../adapters/market-data/file/data-dirs.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/strategies/${name}`, import.meta.url));

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** 400 one-minute candles of a spot BTCUSDT that waves up and down, so signals change side. */
function waveData(): string {
  let open = 100;
  const rows = Array.from({ length: 400 }, (_, i) => {
    const close = Number((100 + 5 * Math.sin(i / 7) + 2 * Math.sin(i / 3.1) + i * 0.02).toFixed(4));
    const row = [T0 + i * MIN, open, Math.max(open, close) + 0.3, Math.min(open, close) - 0.3, close, 10 + (i % 7)];
    open = close;
    return row;
  });
  return dirs.make({
    'candles/BTCUSDT.csv': csv(CANDLE_HEADER, rows),
    'manifest.json': JSON.stringify({
      format: 1,
      timeframe: '1m',
      instruments: { BTCUSDT: { kind: 'spot', lotSize: 0.001, tickSize: 0.0001, minNotional: 5 } },
    }),
  });
}

async function tcs(args: string[], env: NodeJS.ProcessEnv = {}) {
  const proc = startTcs(['strategy', 'check', ...args], env);
  const { code } = await exitWithin(proc, 60_000);
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

interface Report {
  bias: boolean;
  strategies: {
    name: string;
    findings: {
      check: string;
      verdict: string;
      readings?: number;
      data_files?: string[];
      first?: { bar: string; symbol: string; full: unknown; other: unknown; indicator?: string; label?: string };
    }[];
  }[];
}

const verdicts = (report: Report) =>
  Object.fromEntries(
    report.strategies.map((s) => [s.name, Object.fromEntries(s.findings.map((f) => [f.check, f.verdict]))]),
  );

describe('tcs strategy check', () => {
  const data = waveData();

  it('flags the strategy that reads the next bar as look-ahead and the EMA seeded from its first bar as recursive; exit 1', async () => {
    const { code, stdout, stderr } = await tcs([
      fixture('peeks-next-bar.ts'),
      fixture('ema-from-first-bar.ts'),
      '--data',
      data,
      '--json',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as Report;
    expect(report.bias).toBe(true);
    expect(verdicts(report)).toEqual({
      peeks_next_bar: { determinism: 'ok', 'look-ahead': 'bias', recursion: 'ok', indicators: 'n/a' },
      ema_from_first_bar: { determinism: 'ok', 'look-ahead': 'ok', recursion: 'bias', indicators: 'n/a' },
    });
    const peek = report.strategies[0]!.findings.find((f) => f.check === 'look-ahead')!.first!;
    // The full run read the next close; cut at that bar, there was nothing to read.
    expect(peek).toMatchObject({ symbol: 'BTCUSDT', full: { kind: 'signal', confidence: 1 }, other: { kind: 'none' } });
    expect(Date.parse(peek.bar)).toBeGreaterThanOrEqual(T0);
    const ema = report.strategies[1]!.findings.find((f) => f.check === 'recursion')!.first!;
    expect(ema.full).toMatchObject({ kind: 'signal' });
    expect(ema.other).toMatchObject({ kind: 'signal' });
    expect((ema.full as { confidence: number }).confidence).not.toBeCloseTo(
      (ema.other as { confidence: number }).confidence,
      4,
    );
  });

  it('flags a strategy that reads the data files itself, naming the file, although its answers agree at every cut; exit 1', async () => {
    // The cut replay does not cut the file on disk: only the read gives the strategy away.
    const file = join(data, 'candles', 'BTCUSDT.csv');
    const json = await tcs([fixture('reads-data-file.ts'), '--data', data, '--json'], { READS_DATA_FILE: file });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as Report;
    expect(verdicts(report)).toEqual({
      reads_data_file: { determinism: 'ok', 'look-ahead': 'bias', recursion: 'ok', indicators: 'n/a' },
    });
    expect(report.strategies[0]!.findings.find((f) => f.check === 'look-ahead')!.data_files).toEqual([
      'candles/BTCUSDT.csv',
    ]);
    const table = await tcs([fixture('reads-data-file.ts'), '--data', data], { READS_DATA_FILE: file });
    expect(table.code).toBe(1);
    expect(table.stdout).toMatch(/^ {2}look-ahead +BIAS/m);
    expect(table.stdout).toContain('look-ahead: the strategy read the data directory itself (candles/BTCUSDT.csv)');
  });

  it('passes the same EMA rule kept by trackIndicators, and prints a table; exit 0', async () => {
    const { code, stdout } = await tcs([fixture('ema-tracked.ts'), '--data', data]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}look-ahead +ok$/m);
    expect(stdout).toMatch(/^ {2}recursion +ok$/m);
    expect(stdout).toMatch(/^ {2}indicators +ok$/m);
    expect(stdout).toContain('No bias found.');
  });

  it('flags a declared EMA that depends on the history it was given although the signals agree, naming it and both values; exit 1', async () => {
    // The fixture imports the tracker from the sources while the command runs its bundle: two copies
    // of the module, which the check must see through.
    const { code, stdout, stderr } = await tcs([fixture('ema-short-lookback.ts'), '--data', data, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as Report;
    expect(verdicts(report)).toEqual({
      ema_short_lookback: { determinism: 'ok', 'look-ahead': 'ok', recursion: 'ok', indicators: 'bias' },
    });
    const f = report.strategies[0]!.findings.find((x) => x.check === 'indicators')!;
    expect(f.readings).toBeGreaterThan(100);
    expect(f.first).toMatchObject({ symbol: 'BTCUSDT', indicator: 'slow', label: 'ema(50)' });
    expect(Date.parse(f.first!.bar)).toBeGreaterThanOrEqual(T0);
    expect(f.first!.full).not.toBe(f.first!.other);
    const table = await tcs([fixture('ema-short-lookback.ts'), '--data', data]);
    expect(table.stdout).toMatch(
      /indicators +BIAS +2024-01-01T\d\d:\d\d:00\.000Z +BTCUSDT +slow ema\(50\) [\d.]+ +slow ema\(50\) [\d.]+/,
    );
  });

  it('names the check, the first bar and both answers in the table', async () => {
    const { code, stdout } = await tcs([fixture('ema-from-first-bar.ts'), '--data', data, '--samples', '5']);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /recursion +BIAS +2024-01-01T\d\d:\d\d:00\.000Z +BTCUSDT +(long|short) [\d.]+ +(long|short) [\d.]+/,
    );
    expect(stdout).toContain('Bias found');
  });

  it('imports the strategy module once, although every replay makes a fresh agent from it', async () => {
    const dir = dirs.make({ 'package.json': '{ "type": "module" }' });
    const log = join(dir, 'imports.txt');
    writeFileSync(
      join(dir, 'counted.ts'),
      `import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(log)}, 'imported\\n');
export default () => ({ name: 'counted', analyse: () => null });
`,
    );
    const { code, stderr } = await tcs([join(dir, 'counted.ts'), '--data', data, '--samples', '3']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('imported\n');
  });

  it('has its own help, which names every check and the exit codes', async () => {
    const { code, stdout } = await tcs(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: tcs strategy check STRATEGY/);
    for (const word of [
      'determinism',
      'look-ahead',
      'recursion',
      'indicators',
      '--samples',
      '--tolerance',
      '--json',
      'Exit codes: 0',
    ])
      expect(stdout).toContain(word);
  });

  it('refuses an unknown strategy, a missing data directory and a missing strategy with exit 2', async () => {
    const unknown = await tcs([fixture('ema-tracked.ts'), 'momentum_ma_crosover', '--data', data]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('did you mean momentum_ma_crossover');
    const missing = await tcs(['momentum_ma_crossover', '--data', `${data}/nope`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such directory');
    const none = await tcs(['--data', data]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('needs a strategy');
    expect(`${unknown.stdout}${missing.stdout}${none.stdout}`).toBe('');
  });
});

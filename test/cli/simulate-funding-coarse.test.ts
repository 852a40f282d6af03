/**
 * Review of issue 22 item 1 (defect): a replay whose candles are longer than the funding interval
 * has several settlements inside one bar. Every settlement must be paid at its own rate, but the
 * venue (paper-venue/funding.ts settleDue) gets only the latest one (`settledFunding`) and pays the
 * earlier ones at the rate announced before them — under the default 'last-settled' policy, the
 * previous settlement's rate, the very bug issue 22 describes.
 *
 * Fixture: daily candles, flat at 100, a long from the first close; settlements every 8 h with
 * rate 0 at 00:00 and +0.1 % at 08:00 and 16:00. The long must pay 0.2 % of its notional a day;
 * the replay pays 0 (each 08:00 and 16:00 at the 00:00 rate).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';

const STRATEGY = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'tcs-funding-coarse-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const T0 = Date.UTC(2024, 0, 1);
const H = 3_600_000;

/** Flat candles every `barH` hours and settlements every `fundingH` hours at rate(k). */
function dataDir(name: string, barH: number, bars: number, fundingH: number, rate: (k: number) => number): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'candles'), { recursive: true });
  mkdirSync(join(dir, 'funding'), { recursive: true });
  const candles = Array.from({ length: bars }, (_, i) => `${T0 + i * barH * H},100,100.1,99.9,100,500000`);
  writeFileSync(
    join(dir, 'candles', 'BTCUSDT.csv'),
    ['timestamp,open,high,low,close,volume', ...candles, ''].join('\n'),
  );
  const count = Math.ceil((bars * barH) / fundingH) + 1;
  const rates = Array.from({ length: count }, (_, k) => `${T0 + k * fundingH * H},${rate(k)}`);
  writeFileSync(join(dir, 'funding', 'BTCUSDT.csv'), ['timestamp,rate', ...rates, ''].join('\n'));
  return dir;
}

/** Runs the always-long strategy on `dir`; the summary's funding and what each held bar should pay. */
async function fundingOf(dir: string, out: string, perBar: number): Promise<{ funding: number; expected: number }> {
  const proc = startTcs(
    ['simulate', '--data', dir, '--out', out, '--quiet'],
    { SYMBOLS: 'BTCUSDT', STRATEGIES: STRATEGY },
    root,
  );
  const { code } = await exitWithin(proc, 60_000);
  expect(code).toBe(0);
  const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { funding: number };
  const equity = readFileSync(join(out, 'equity.csv'), 'utf8').trim().split('\n').slice(1);
  // The long holds from the first bar's close: every later bar's settlements are paid on its notional.
  let expected = 0;
  for (const row of equity.slice(0, -1)) expected -= perBar * Number(row.split(',')[5]);
  return { funding: summary.funding, expected };
}

describe('tcs simulate --data, funding with candles longer than the funding interval', () => {
  it('pays every settlement inside a bar at its own rate (daily candles, 8 h funding)', async () => {
    const dir = dataDir('daily', 24, 6, 8, (k) => (k % 3 === 0 ? 0 : 0.001));
    // Each day: 00:00 at 0, 08:00 and 16:00 at +0.1 %.
    const { funding, expected } = await fundingOf(dir, join(root, 'run-daily'), 0.002);
    expect(expected).toBeLessThan(-1);
    expect(funding).toBeCloseTo(expected, 0);
  }, 60_000);

  it('pays every settlement inside a bar, however short the funding interval (4 h candles, 1 h funding)', async () => {
    const dir = dataDir('hourly', 4, 8, 1, () => 0.001);
    // Four settlements a bar at +0.1 % each (the venue's own interval is 8 h: only the file knows there are four).
    const { funding, expected } = await fundingOf(dir, join(root, 'run-hourly'), 0.004);
    expect(expected).toBeLessThan(-1);
    expect(funding).toBeCloseTo(expected, 0);
  }, 60_000);
});

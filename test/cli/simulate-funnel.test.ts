/**
 * The signal funnel (issue 34, item 3) through `tcs simulate` as a user runs it, with strategy modules
 * written here: a strategy whose signals the defaults drop (the no-trade band, the confidence floor)
 * gets a funnel in summary.json, the printed summary and the report saying which reason dropped them,
 * and one warning line on stderr naming the variable; a strategy that trades gets no warning and a
 * funnel whose `filled` matches its fills in trades.csv.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';
import type { StrategyFunnel } from '../../src/domain/signal-funnel-tally.js';

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const BARS = 40;

const root = mkdtempSync(join(tmpdir(), 'tcs-funnel-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
writeFileSync(join(root, 'package.json'), '{"type":"module"}');

function dataDir(): string {
  const dir = join(root, 'data');
  mkdirSync(join(dir, 'candles'), { recursive: true });
  const rows: string[] = [];
  for (let i = 0; i < BARS; i++) {
    const close = 100 + ((i * 7) % 11) / 2;
    rows.push([T0 + i * MIN, close - 0.5, close + 1, close - 1, close, 100_000].join(','));
  }
  writeFileSync(join(dir, 'candles', 'BTCUSDT.csv'), ['timestamp,open,high,low,close,volume', ...rows, ''].join('\n'));
  return dir;
}
const data = dataDir();

/** A strategy module sending `direction` (an expression of the snapshot `s`) with `confidence` each bar. */
function strategy(name: string, direction: string, confidence: number): string {
  const path = join(root, `${name}.ts`);
  writeFileSync(
    path,
    `export default {
  name: ${JSON.stringify(name)},
  lookback: 5,
  analyse(s: any) {
    return { agent: ${JSON.stringify(name)}, symbol: s.symbol, direction: ${direction}, confidence: ${confidence} };
  },
};
`,
  );
  return path;
}

type Funnel = StrategyFunnel;

async function simulate(out: string, strategies: string) {
  const proc = startTcs(
    ['simulate', '--data', data, '--out', join(root, out)],
    { SYMBOLS: 'BTCUSDT:spot', STRATEGIES: strategies },
    root,
  );
  const { code } = await exitWithin(proc, 60_000);
  expect(code).toBe(0);
  const summary = JSON.parse(readFileSync(join(root, out, 'summary.json'), 'utf8')) as {
    fills: number;
    denials: number;
    signal_funnel: Record<string, Funnel>;
  };
  return {
    stdout: proc.stdout(),
    stderr: proc.stderr(),
    summary,
    report: readFileSync(join(root, out, 'report.html'), 'utf8'),
    trades: readFileSync(join(root, out, 'trades.csv'), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1),
  };
}

const sum = (r: Record<string, number>) => Object.values(r).reduce((n, c) => n + c, 0);
const total = (f: Funnel) =>
  f.filled +
  f.ordered +
  sum(f.refused) +
  sum(f.risk_denied) +
  sum(f.skipped) +
  sum(f.no_change) +
  f.invalid +
  f.errored;

describe('tcs simulate: every signal is counted by what became of it', () => {
  it('signals the no-trade band drops: counted WITHIN_BAND, shown, and warned naming NO_TRADE_BAND', async () => {
    // Confidence 0.15 passes the floor (0.1), but its target is within the band (0.2) of flat: never traded.
    const run = await simulate('band', strategy('timid', '1', 0.15));
    expect(run.summary.fills).toBe(0);
    expect(run.summary.denials).toBe(0);
    const f = run.summary.signal_funnel.timid!;
    expect(f.signals).toBeGreaterThan(20);
    expect(total(f)).toBe(f.signals);
    expect(f.skipped.WITHIN_BAND).toBe(f.signals);
    const warnings = run.stderr.split('\n').filter((l) => l.startsWith('warning: timid:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('WITHIN_BAND');
    expect(warnings[0]).toContain('NO_TRADE_BAND');
    // "Denied orders 0" beside 0 fills: the printed funnel says why.
    expect(run.stdout).toMatch(/Signal funnel[\s\S]*timid[\s\S]*WITHIN_BAND/);
    expect(run.report).toMatch(/id="signal-funnel"[\s\S]*WITHIN_BAND/);
  }, 60_000);

  it('signals under the confidence floor: counted BELOW_MIN_CONFIDENCE, warned naming ARBITER_MIN_CONFIDENCE', async () => {
    const run = await simulate('floor', strategy('whisper', '1', 0.05));
    const f = run.summary.signal_funnel.whisper!;
    expect(f.skipped.BELOW_MIN_CONFIDENCE).toBe(f.signals);
    expect(run.stderr).toMatch(/^warning: whisper: .*BELOW_MIN_CONFIDENCE.*ARBITER_MIN_CONFIDENCE/m);
  }, 60_000);

  it('a strategy that trades: filled matches its fills, no warning', async () => {
    // Long on even minutes, flat on odd ones: nearly every signal changes the position.
    const run = await simulate('trades', strategy('flipper', 'Math.floor(s.ts / 60000) % 2 === 0 ? 1 : 0', 1));
    expect(run.stderr.split('\n').filter((l) => /warning/i.test(l))).toEqual([]);
    const f = run.summary.signal_funnel.flipper!;
    expect(total(f)).toBe(f.signals);
    const ownFills = run.trades.filter((row) => row.split(',')[9] === 'flipper').length;
    expect(ownFills).toBeGreaterThan(10);
    // One fill per order here (market orders on a deep book), one order per signal (long/flat, no flips).
    expect(f.filled).toBe(ownFills);
    // Nothing dropped on the way: at most the last order, with no bar left to fill at, refused by the venue.
    expect(sum(f.skipped) + sum(f.risk_denied) + f.invalid + f.errored, JSON.stringify(f)).toBe(0);
    expect(sum(f.refused)).toBeLessThanOrEqual(1);
  }, 60_000);
});

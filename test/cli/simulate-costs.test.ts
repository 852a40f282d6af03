/**
 * Slippage, itemised costs and the marking price through `tcs simulate --data` (issue 34, item 4), on
 * the hand-made gap of simulate-fills.test.ts: a candle closing at 110, then candles at 120 whose
 * book is bid 120 / ask 120.1 (one tick of spread, mid 120.05), traded by a strategy long from the
 * first cycle. Its buy fills at the next open's ask, 120.1:
 *  * SLIPPAGE_BPS=10 moves it to 120.1 × 1.001 = 120.2201, up to the tick: 120.3; trades.csv,
 *    summary.json and the printed summary itemise 0.05 a unit of spread and 0.2 of slippage;
 *  * SLIPPAGE_BPS=0 writes the very bytes of a run without it (trades.csv, equity.csv, summary.json);
 *  * MARK_PRICE=close marks the position at 120 (the open at the fill, the closes after it) instead
 *    of the mid 120.05: every equity row after the fill is 0.05 a unit lower; a bad value is refused.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SIMULATE_HELP } from '../../src/runtime/simulate/simulate-options.js';
import { exitWithin, startTcs } from '../support/processes.js';

const STRATEGY = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.js', import.meta.url));
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const VOLUME = 100_000;

const root = mkdtempSync(join(tmpdir(), 'tcs-costs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Candle = [open: number, high: number, low: number, close: number];
const FLAT_120: Candle = [120, 120.5, 119.5, 120];
const CANDLES: Candle[] = [[109, 110.5, 108.5, 110], [120, 120.5, 119.5, 120], FLAT_120, FLAT_120, FLAT_120];

const data = join(root, 'data');
mkdirSync(join(data, 'candles'), { recursive: true });
writeFileSync(
  join(data, 'candles', 'BTCUSDT.csv'),
  [
    'timestamp,open,high,low,close,volume',
    ...CANDLES.map(([o, h, l, c], i) => [T0 + i * MIN, o, h, l, c, VOLUME].join(',')),
    '',
  ].join('\n'),
);

interface Run {
  trades: Record<string, string>[];
  files: Record<'trades.csv' | 'equity.csv' | 'summary.json', string>;
  summary: { costs: Record<string, unknown> & { by_symbol: Record<string, Record<string, number>> } };
  stdout: string;
}

async function simulate(out: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const dir = join(root, out);
  const proc = startTcs(
    ['simulate', '--data', data, '--out', dir, '--quiet'],
    { SYMBOLS: 'BTCUSDT:spot', STRATEGIES: STRATEGY, ...env },
    root,
  );
  const { code } = await exitWithin(proc, 60_000);
  expect(proc.stderr()).toBe('');
  expect(code).toBe(0);
  const read = (name: string) => readFileSync(join(dir, name), 'utf8');
  const files = {
    'trades.csv': read('trades.csv'),
    'equity.csv': read('equity.csv'),
    'summary.json': read('summary.json'),
  };
  const [header, ...rows] = files['trades.csv'].trimEnd().split('\n');
  const columns = header!.split(',');
  return {
    trades: rows.map((line) => Object.fromEntries(line.split(',').map((v, i) => [columns[i], v]))),
    files,
    summary: JSON.parse(files['summary.json']) as Run['summary'],
    stdout: proc.stdout(),
  };
}

/** equity.csv's NAV column, by row. */
const navs = (run: Run): number[] =>
  run.files['equity.csv']
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => Number(line.split(',')[1]));

describe('tcs simulate --data: slippage, itemised costs, marking', () => {
  it('--help names the cost and mark variables', () => {
    expect(SIMULATE_HELP).toMatch(/^ {2}SLIPPAGE_BPS {8}/m);
    expect(SIMULATE_HELP).toMatch(/^ {2}MARK_PRICE {10}mid \(default\) or close/m);
    expect(SIMULATE_HELP).toMatch(/^ {2}SPREAD_MODEL {8}/m);
  });

  it('SLIPPAGE_BPS=10 fills 0.2 a unit higher; trades.csv, summary.json and the printed summary itemise spread and slippage', async () => {
    const run = await simulate('slip-10', { SLIPPAGE_BPS: '10' });
    const buy = run.trades[0]!;
    expect(buy).toMatchObject({ side: 'BUY', price: '120.3', liquidity: 'taker' });
    const qty = Number(buy.qty);
    expect(Number(buy.spread_cost)).toBeCloseTo(0.05 * qty, 6);
    expect(Number(buy.slippage_cost)).toBeCloseTo(0.2 * qty, 6);
    const { costs } = run.summary;
    expect(costs.spread).toBeCloseTo(0.05 * qty, 6);
    expect(costs.slippage).toBeCloseTo(0.2 * qty, 6);
    expect(costs.fees).toBeCloseTo(Number(buy.fee), 6);
    expect(costs.total).toBeCloseTo(Number(buy.fee) + 0.25 * qty, 6);
    expect(costs.by_symbol.BTCUSDT).toEqual({
      fees: costs.fees,
      spread: costs.spread,
      slippage: costs.slippage,
      total: costs.total,
    });
    expect(run.stdout).toMatch(/Symbol\s+Fees\s+Spread\s+Slippage\s+Total/);
    expect(readFileSync(join(root, 'slip-10', 'report.html'), 'utf8')).toContain('<h2>Costs');
  }, 60_000);

  it('SLIPPAGE_BPS=0 and MARK_PRICE=mid write the bytes of a run without them', async () => {
    const [plain, zero] = await Promise.all([
      simulate('plain'),
      simulate('zero', { SLIPPAGE_BPS: '0', MARK_PRICE: 'mid' }),
    ]);
    expect(zero.files).toEqual(plain.files);
    expect(plain.trades[0]).toMatchObject({ price: '120.1', slippage_cost: '0' });
  }, 60_000);

  it('MARK_PRICE=close marks at 120, not at the mid 120.05: each row from the fill on is 0.05 a unit lower', async () => {
    const [mid, close] = await Promise.all([simulate('mark-mid'), simulate('mark-close', { MARK_PRICE: 'close' })]);
    expect(close.trades).toEqual(mid.trades);
    const qty = Number(mid.trades[0]!.qty);
    const [midRows, closeRows] = [navs(mid), navs(close)];
    expect(closeRows).toHaveLength(midRows.length);
    // Row 0 is the fill's row (the decision's candle): the position taken at the next open is in it.
    for (let i = 0; i < midRows.length; i++) expect(midRows[i]! - closeRows[i]!).toBeCloseTo(0.05 * qty, 6);
    const bad = startTcs(
      ['simulate', '--data', data, '--out', join(root, 'mark-bad'), '--quiet'],
      { SYMBOLS: 'BTCUSDT:spot', STRATEGIES: STRATEGY, MARK_PRICE: 'last' },
      root,
    );
    expect((await exitWithin(bad, 60_000)).code).toBe(2);
    expect(bad.stderr()).toContain('MARK_PRICE must be one of mid, close, got "last"');
  }, 60_000);
});

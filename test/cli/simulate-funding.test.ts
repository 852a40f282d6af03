/**
 * Funding in a replayed `tcs simulate` (issue 22, item 1): what a position paid or received reaches
 * the symbol it was paid on and the strategy that held the position, in summary.json and in the
 * report's per-symbol funding column, and nothing is left unattributed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { money } from '../../src/adapters/simulation-report/metric-rows.js';
import { exitWithin, startTcs } from '../support/processes.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-simulate-funding-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const H8 = 8 * 3_600_000;

/** 10 h of flat one-minute candles at 100 and funding at +0.1 % every 8 h: the contrarian goes short. */
function dataDir(): string {
  const dir = join(root, 'data');
  mkdirSync(join(dir, 'candles'), { recursive: true });
  mkdirSync(join(dir, 'funding'), { recursive: true });
  const candles = Array.from({ length: 600 }, (_, i) => `${T0 + i * MIN},100,100.1,99.9,100,50000`);
  writeFileSync(
    join(dir, 'candles', 'BTCUSDT.csv'),
    ['timestamp,open,high,low,close,volume', ...candles, ''].join('\n'),
  );
  const rates = [-H8, 0, H8, 2 * H8].map((t) => `${T0 + t},0.001`);
  writeFileSync(join(dir, 'funding', 'BTCUSDT.csv'), ['timestamp,rate', ...rates, ''].join('\n'));
  return dir;
}

describe('tcs simulate --data, funding', () => {
  it('books each settlement to its symbol and to the strategy holding the position', async () => {
    const out = join(root, 'run');
    const proc = startTcs(
      ['simulate', '--data', dataDir(), '--strategies', 'funding_rate_contrarian', '--out', out, '--quiet'],
      {},
      root,
    );
    const { code } = await exitWithin(proc, 60_000);
    expect(proc.stderr()).toBe('');
    expect(code).toBe(0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      funding: number;
      funding_unattributed: number;
      pnl_unexplained: number;
      pnl_by_symbol: Record<string, { funding: number }>;
      pnl_by_strategy: Record<string, { funding: number }>;
    };
    // The short held through the 08:00 settlement received +0.1 % of its notional.
    expect(summary.funding).toBeGreaterThan(0);
    expect(summary.pnl_by_symbol.BTCUSDT!.funding).toBe(summary.funding);
    expect(summary.pnl_by_strategy.funding_rate_contrarian!.funding).toBe(summary.funding);
    expect(summary.funding_unattributed).toBe(0);
    expect(summary.pnl_unexplained).toBeCloseTo(0, 6);

    // The report's and the printed table's per-symbol row show it in the funding column.
    const row = proc
      .stdout()
      .split('\n')
      .find((l) => l.startsWith('BTCUSDT'));
    expect(row?.split(/\s{2,}/)).toContain(money(summary.funding));
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain(`<td>BTCUSDT</td>`);
    expect(html).toMatch(new RegExp(`<td>BTCUSDT</td>(<td[^>]*>[^<]*</td>){3}<td[^>]*>${money(summary.funding)}</td>`));
  }, 60_000);
});

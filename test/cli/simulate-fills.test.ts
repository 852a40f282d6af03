/**
 * Fill models through `tcs simulate --data` (issue 22, item 2), on hand-made one-minute BTCUSDT spot
 * candles with a deep book (volume 100,000 a candle, so an order takes only the touch and the fill
 * price is the quote itself), traded by a strategy that is long from the first cycle
 * (test/fixtures/strategies/btc-always-long.js):
 *  * the gap: the first candle closes at 110, the second opens at 120. Decided at the first close,
 *    the buy fills at the second candle's open (next_open, the replay default) — 120 plus the one
 *    tick of spread — and at 110 plus the spread with --fill-model close (FILL_MODEL=close).
 *  * the dip: a resting bid at 100 (ORDER_STYLE=passive joins the best bid of a candle closing at
 *    100) fills at 100, as maker, on the next candle, which trades down to 90 and closes at 100 again;
 *    no candle after it goes below 100, so the fill can only come from that one.
 *  * fees: FEE_TAKER sets the taker fee, and a manifest's per-symbol takerFee overrides it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';

const STRATEGY = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.js', import.meta.url));
const T0 = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const VOLUME = 100_000;

const root = mkdtempSync(join(tmpdir(), 'tcs-fills-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Candle = [open: number, high: number, low: number, close: number];

/** A data directory of BTCUSDT spot candles, one a minute from T0 (and a manifest when given). */
function dataDir(name: string, candles: Candle[], manifest?: object): string {
  const dir = join(root, `data-${name}`);
  mkdirSync(join(dir, 'candles'), { recursive: true });
  if (manifest) writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const rows = candles.map(([o, h, l, c], i) => [T0 + i * MIN, o, h, l, c, VOLUME].join(','));
  writeFileSync(join(dir, 'candles', 'BTCUSDT.csv'), ['timestamp,open,high,low,close,volume', ...rows, ''].join('\n'));
  return dir;
}

type Trade = Record<string, string>;

async function simulate(data: string, out: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Trade[]> {
  const proc = startTcs(
    ['simulate', '--data', data, '--out', join(root, out), '--quiet', ...args],
    { SYMBOLS: 'BTCUSDT:spot', STRATEGIES: STRATEGY, ...env },
    root,
  );
  const { code } = await exitWithin(proc, 60_000);
  expect(proc.stderr()).toBe('');
  expect(code).toBe(0);
  const [header, ...rows] = readFileSync(join(root, out, 'trades.csv'), 'utf8')
    .trimEnd()
    .split('\n');
  const columns = header!.split(',');
  return rows.map((line) => Object.fromEntries(line.split(',').map((v, i) => [columns[i], v])));
}

const FLAT_120: Candle = [120, 120.5, 119.5, 120];
/** 100 bps of the 110 close: 1.1 = 11 ticks; bid = 110 − 5 ticks, ask = bid + 11 ticks = 110.6, moved to the next open (+10). */
const FIXED_100_BPS_ASK = '120.6';

describe('tcs simulate --data: where fills happen', () => {
  const gap = dataDir('gap', [[109, 110.5, 108.5, 110], [120, 120.5, 119.5, 120], FLAT_120, FLAT_120, FLAT_120]);

  it('next_open (the replay default): a buy decided on the candle closing at 110 fills at the next open, 120 + one tick', async () => {
    const trades = await simulate(gap, 'gap-next-open');
    expect(trades.length).toBeGreaterThan(0);
    expect(trades[0]).toMatchObject({ side: 'BUY', price: '120.1', liquidity: 'taker' });
    // Decided at the first candle's close, which is the second candle's open: the fill's time.
    expect(Date.parse(trades[0]!.ts!)).toBe(T0 + MIN);
    // The report's settings say which fill model the run used, and its fees.
    const report = readFileSync(join(root, 'gap-next-open', 'report.html'), 'utf8');
    expect(report).toMatch(/market orders fill at the next candle(&#39;|&#x27;|')s open \(FILL_MODEL=next_open\)/);
    expect(report).toContain('maker 0.0002, taker 0.0005');
  }, 60_000);

  it('--fill-model close (FILL_MODEL=close) keeps the old fill at the close the strategy saw: 110 + one tick', async () => {
    const [byFlag, byEnv] = await Promise.all([
      simulate(gap, 'gap-close-flag', ['--fill-model', 'close']),
      simulate(gap, 'gap-close-env', [], { FILL_MODEL: 'close' }),
    ]);
    expect(byFlag[0]).toMatchObject({ side: 'BUY', price: '110.1', liquidity: 'taker' });
    expect(byEnv[0]).toMatchObject({ side: 'BUY', price: '110.1', liquidity: 'taker' });
  }, 60_000);

  it('SPREAD_MODEL=none fills at the open itself; fixed_bps at the open plus half its spread; a bad value is refused', async () => {
    const [none, fixed] = await Promise.all([
      simulate(gap, 'gap-spread-none', [], { SPREAD_MODEL: 'none' }),
      simulate(gap, 'gap-spread-fixed', [], { SPREAD_MODEL: 'fixed_bps', SPREAD_BPS: '100' }),
    ]);
    expect(none[0]).toMatchObject({ side: 'BUY', price: '120', liquidity: 'taker' });
    expect(fixed[0]).toMatchObject({ side: 'BUY', price: FIXED_100_BPS_ASK, liquidity: 'taker' });
    expect(readFileSync(join(root, 'gap-spread-none', 'report.html'), 'utf8')).toContain(
      'no spread (SPREAD_MODEL=none)',
    );
    const bad = startTcs(
      ['simulate', '--data', gap, '--out', join(root, 'gap-spread-bad'), '--quiet'],
      { SYMBOLS: 'BTCUSDT:spot', STRATEGIES: STRATEGY, SPREAD_MODEL: 'fixed_bps' },
      root,
    );
    const { code } = await exitWithin(bad, 60_000);
    expect(code).toBe(2);
    expect(bad.stderr()).toContain('SPREAD_MODEL=fixed_bps needs SPREAD_BPS');
  }, 60_000);

  it('a resting bid at 100 fills at 100 as maker on the candle whose low is 90', async () => {
    const calm: Candle = [100, 100.2, 100, 100];
    const dip = dataDir('dip', [[100, 100.2, 99.8, 100], [100, 100.2, 90, 100], calm, calm, calm]);
    const trades = await simulate(dip, 'dip', [], { ORDER_STYLE: 'passive' });
    expect(trades.length).toBeGreaterThan(0);
    expect(trades[0]).toMatchObject({ side: 'BUY', price: '100', liquidity: 'maker' });
    // The dip candle's cycle: it closes two minutes after T0.
    expect(Date.parse(trades[0]!.ts!)).toBe(T0 + 2 * MIN);
  }, 60_000);

  it("FEE_TAKER sets the taker fee, and the manifest's takerFee for BTCUSDT overrides it", async () => {
    const candles: Candle[] = [[109, 110.5, 108.5, 110], [120, 120.5, 119.5, 120], FLAT_120, FLAT_120];
    const btc = { kind: 'spot', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
    const own = dataDir('fees', candles, { format: 1, instruments: { BTCUSDT: { ...btc, takerFee: 0.0003 } } });
    const [byEnv, byManifest] = await Promise.all([
      simulate(gap, 'fee-env', [], { FEE_TAKER: '0.001' }),
      simulate(own, 'fee-manifest', [], { FEE_TAKER: '0.001' }),
    ]);
    const rate = (t: Trade) => Number(t.fee) / Number(t.notional);
    expect(byEnv[0]!.liquidity).toBe('taker');
    expect(rate(byEnv[0]!)).toBeCloseTo(0.001, 6);
    expect(rate(byManifest[0]!)).toBeCloseTo(0.0003, 6);
    expect(readFileSync(join(root, 'fee-manifest', 'report.html'), 'utf8')).toContain(
      'maker 0.0002, taker 0.001; BTCUSDT taker 0.0003',
    );
  }, 60_000);
});

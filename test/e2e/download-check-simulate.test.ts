/**
 * The whole historical path as an operator walks it, with the real `tcs` command and no network but
 * loopback: `tcs data download` from the local fake Binance USD-M exchange, `tcs data check` on what
 * it wrote, and `tcs simulate --data` replaying it (the whole range and a window inside it), with a
 * run's span and trades inside the data; a damaged copy of the data refused naming file and line.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';
import { startFakeExchange } from '../support/fake-exchange/server.js';
import type { FakeExchange } from '../support/fake-exchange/server.js';

const MINUTE = 60_000;
const FROM = Date.UTC(2025, 2, 3, 0, 0);
const TO = FROM + 6 * 60 * MINUTE; // 360 one-minute candles per symbol
const iso = (ms: number) => new Date(ms).toISOString();
// Without --symbols (or SYMBOLS) a replay trades the directory's symbols; the other runs name them.
const SYMBOLS = ['--symbols', 'BTCUSDT,ETHUSDT'];
// The default cross mode signals about ten times in these six hours, every one inside the no-trade
// band; trend mode (read from the environment, as every trading variable) trades, so trades.csv has rows.
// One-minute averages (5 vs 20), so a replay's warm-up is the 20 candles the agent declares.
const TRADING_ENV = {
  STRATEGY_PARAMS: JSON.stringify({
    momentum_ma_crossover: {
      mode: 'trend',
      spreadForFullConfidence: 0.0005,
      minSpread: 0,
      timeframe: '1m',
      fast: 5,
      slow: 20,
    },
  }),
};
/** Candles before a replay's first cycle: the 20 the momentum agent needs, its first cycle on the 20th. */
const WARM_UP = 19;

const root = mkdtempSync(join(tmpdir(), 'tcs-e2e-data-'));
const data = join(root, 'data');
let fake: FakeExchange;

beforeAll(async () => {
  fake = await startFakeExchange({ seed: 7 });
});
afterAll(async () => {
  await fake.stop();
  cpSync(root, '/tmp/keep-e2e', { recursive: true });
  rmSync(root, { recursive: true, force: true });
});

async function tcs(args: string[], env: NodeJS.ProcessEnv = {}) {
  const proc = startTcs(args, env, root);
  const { code } = await exitWithin(proc, 60_000);
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

const candleTimes = (dir: string, symbol: string) =>
  readFileSync(join(dir, 'candles', `${symbol}.csv`), 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => Number(line.split(',')[0]));

function readRun(dir: string) {
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
  const trades = readFileSync(join(dir, 'trades.csv'), 'utf8').trimEnd().split('\n').slice(1);
  return { summary, tradeTimes: trades.map((row) => Date.parse(row.split(',')[0]!)) };
}

describe('download → check → simulate (fake binanceusdm)', () => {
  it('downloads both symbols from the exchange into a data directory', async () => {
    const res = await tcs(
      [
        'data',
        'download',
        '--exchange',
        'binanceusdm',
        '--symbols',
        'BTCUSDT,ETHUSDT',
        '--timeframe',
        '1m',
        '--from',
        iso(FROM),
        '--to',
        iso(TO),
        '--out',
        data,
      ],
      // ccxt's throttle at 1 ms (test-only knob): the fake has no rate to respect.
      { LIVE_EXCHANGE_URL: fake.url, TCS_TEST_EXCHANGE_RATE_LIMIT_MS: '1' },
    );
    expect(res.code, res.stderr).toBe(0);
    expect(fake.requests.some((r) => r.startsWith('/fapi/v1/klines'))).toBe(true);
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      const times = candleTimes(data, symbol);
      expect(times).toHaveLength(360);
      expect(times[0]).toBe(FROM);
      expect(times.at(-1)).toBe(TO - MINUTE);
    }
  });

  it('tcs data check accepts it and prints both symbols’ coverage', async () => {
    const res = await tcs(['data', 'check', data]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('valid, 2 symbol(s), timeframe 1m, from binanceusdm');
    for (const symbol of ['BTCUSDT', 'ETHUSDT']) {
      const row = res.stdout
        .split('\n')
        .find((l) => l.startsWith(symbol))
        ?.split(/\s{2,}/);
      expect(row?.slice(0, 6), symbol).toEqual([symbol, 'perp', '1m', iso(FROM), iso(TO - MINUTE), '360']);
    }
  });

  it('tcs simulate --data replays every candle after the warm-up: one cycle each, the span of the data, trades inside it', async () => {
    const out = join(root, 'run-all');
    // No --symbols: the directory's two symbols (the default whitelist's SOLUSDT is not in it).
    const res = await tcs(['simulate', '--data', data, '--out', out, '--quiet'], TRADING_ENV);
    expect(res.code, res.stderr).toBe(0);
    const { summary, tradeTimes } = readRun(out);
    expect(Object.keys(summary.pnl_by_symbol as Record<string, unknown>)).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(summary.partial).toBe(false);
    expect(summary.cycles).toBe(360 - WARM_UP);
    // From the first replayed candle's open (after the warm-up, issue 19) to the last candle's close.
    expect(summary.from).toBe(iso(FROM + WARM_UP * MINUTE));
    expect(summary.to).toBe(iso(TO));
    // The strategies traded on this data, so the check below has rows to look at.
    expect(tradeTimes.length).toBe(summary.fills);
    expect(tradeTimes.length).toBeGreaterThan(0);
    for (const ts of tradeTimes) {
      expect(ts).toBeGreaterThan(FROM);
      expect(ts).toBeLessThanOrEqual(TO);
    }
    const verify = await tcs(['audit', 'verify'], { STORE_URL: `sqlite:${join(out, 'events.db')}` });
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toContain(`audit trail intact: ${360 - WARM_UP} entries`);
  });

  it('tcs simulate --data --from --to replays only the candles of that window', async () => {
    const from = FROM + 60 * MINUTE;
    const to = FROM + 4 * 60 * MINUTE;
    const out = join(root, 'run-window');
    const res = await tcs(
      ['simulate', '--data', data, ...SYMBOLS, '--from', iso(from), '--to', iso(to), '--out', out, '--quiet'],
      TRADING_ENV,
    );
    expect(res.code, res.stderr).toBe(0);
    const { summary, tradeTimes } = readRun(out);
    const inWindow = candleTimes(data, 'BTCUSDT').filter((t) => t >= from && t < to);
    expect(inWindow).toHaveLength(180);
    expect(summary.cycles).toBe(inWindow.length);
    expect(summary.from).toBe(iso(inWindow[0]!));
    expect(summary.to).toBe(iso(inWindow.at(-1)! + MINUTE));
    expect(tradeTimes.length).toBe(summary.fills);
    expect(tradeTimes.length).toBeGreaterThan(0);
    for (const ts of tradeTimes) {
      expect(ts).toBeGreaterThan(from);
      expect(ts).toBeLessThanOrEqual(to);
    }
  });

  it('a copy with a candle row deleted makes tcs simulate --data exit 2 naming the file and line', async () => {
    const broken = join(root, 'data-gap');
    cpSync(data, broken, { recursive: true });
    const file = join(broken, 'candles', 'ETHUSDT.csv');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.splice(100, 1); // line 101 (the header is line 1): the candle at FROM + 99 min
    writeFileSync(file, lines.join('\n'));
    const out = join(root, 'run-broken');
    const res = await tcs(['simulate', '--data', broken, ...SYMBOLS, '--out', out, '--quiet'], TRADING_ENV);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(
      `candles/ETHUSDT.csv line 101: gap: expected timestamp ${FROM + 99 * MINUTE} (${iso(FROM + 99 * MINUTE)})`,
    );
    expect(res.stdout).toBe('');
  });
});

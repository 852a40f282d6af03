/**
 * `tcs simulate` as a user runs it (the real command, as a child process, in temporary
 * directories): a synthetic run's files and summary table, an event store `tcs audit verify`
 * accepts, a byte-identical summary.json for the same seed, Ctrl-C ending a long run with a partial
 * report, and bad arguments refused with exit 2 before anything is written.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/runtime/config.js';
import { parseSimulateArgs } from '../../src/runtime/simulate/simulate-options.js';
import { childPids, exitWithin, startTcs } from '../support/processes.js';
import { REQUIRED_SUMMARY_KEYS } from '../support/summary-keys.js';
import Database from 'better-sqlite3';

const TRADES_HEADER =
  'ts,client_order_id,symbol,side,qty,price,notional,fee,liquidity,strategy,kind,realized_pnl,position_after,spread_cost,slippage_cost';
const EQUITY_HEADER = 'ts,nav,cash,drawdown,gross_exposure,net_exposure';
const SYMBOLS = 'BTCUSDT,ETHUSDT';

// The working directory too is a temporary one, so no .env of the repository is read.
const root = mkdtempSync(join(tmpdir(), 'tcs-simulate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const path = (...parts: string[]) => join(root, ...parts);

async function tcs(args: string[], env: NodeJS.ProcessEnv = {}) {
  const proc = startTcs(args, env, root);
  const { code } = await exitWithin(proc, 60_000);
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

const simulate = (out: string, seed: number) =>
  tcs(['simulate', '--cycles', '300', '--seed', String(seed), '--symbols', SYMBOLS, '--out', out, '--quiet']);

const summaryOf = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as Record<string, unknown>;
const csvLines = (dir: string, name: string) => readFileSync(join(dir, name), 'utf8').trimEnd().split('\n');

describe('tcs simulate (synthetic market)', () => {
  let run: Awaited<ReturnType<typeof tcs>>;
  const out = path('run-a');

  beforeAll(async () => {
    run = await simulate(out, 3);
  }, 60_000);

  it('exits 0 and writes the event store, summary.json, trades.csv, equity.csv and report.html', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      'equity.csv',
      'events.db',
      'report.html',
      'round-trips.csv',
      'summary.json',
      'trades.csv',
    ]);

    const summary = summaryOf(out);
    for (const key of REQUIRED_SUMMARY_KEYS) expect(summary, key).toHaveProperty(key);
    expect(summary.cycles).toBe(300);
    expect(summary.partial).toBe(false);
    const from = Date.parse(summary.from as string);
    const to = Date.parse(summary.to as string);
    expect(to - from).toBe(300 * 60_000);
    expect(Object.keys(summary.pnl_by_symbol as object).sort()).toEqual(['BTCUSDT', 'ETHUSDT']);

    const equity = csvLines(out, 'equity.csv');
    expect(equity[0]).toBe(EQUITY_HEADER);
    expect(equity).toHaveLength(301);
    // One row per cycle, at each cycle's end: from + 1 cycle … to.
    expect(Date.parse(equity[1]!.split(',')[0]!)).toBe(from + 60_000);
    expect(Date.parse(equity[300]!.split(',')[0]!)).toBe(to);

    const trades = csvLines(out, 'trades.csv');
    expect(trades[0]).toBe(TRADES_HEADER);
    expect(trades.length - 1).toBe(summary.fills);
    for (const row of trades.slice(1)) {
      const ts = Date.parse(row.split(',')[0]!);
      expect(ts).toBeGreaterThan(from);
      expect(ts).toBeLessThanOrEqual(to);
    }

    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?(https?:)?\/\//i);
  });

  it('prints the summary as a table on stdout, with the figures of summary.json', () => {
    const summary = summaryOf(out);
    const row = (label: string) =>
      run.stdout
        .split('\n')
        .find((l) => l.startsWith(label))
        ?.slice(label.length)
        .trim();
    expect(row('Period')).toBe(`${summary.from as string} → ${summary.to as string}`);
    expect(row('Cycles')).toBe('300 × 60 s');
    expect(row('Trades (round trips)')).toBe(String(summary.trades));
    expect(run.stdout).toMatch(/^Total return\s+-?\d/m);
    expect(run.stdout).toMatch(/^Sharpe/m);
    expect(run.stdout).toMatch(/^BTCUSDT\s/m);
    expect(run.stdout).toMatch(/^ETHUSDT\s/m);
  });

  it('leaves an event store that tcs audit verify accepts, one entry per cycle', async () => {
    const res = await tcs(['audit', 'verify'], { STORE_URL: `sqlite:${join(out, 'events.db')}` });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^audit trail intact: 300 entries, head [0-9a-f]{64}$/m);
  });

  it('writes a byte-identical summary.json for the same seed, and another for another seed', async () => {
    const again = path('run-a-again');
    const other = path('run-seed-4');
    const [same, different] = await Promise.all([simulate(again, 3), simulate(other, 4)]);
    expect(same.code).toBe(0);
    expect(different.code).toBe(0);
    const first = readFileSync(join(out, 'summary.json'));
    expect(readFileSync(join(again, 'summary.json')).equals(first)).toBe(true);
    expect(readFileSync(join(again, 'equity.csv')).equals(readFileSync(join(out, 'equity.csv')))).toBe(true);
    expect(readFileSync(join(other, 'summary.json')).equals(first)).toBe(false);
  }, 60_000);
});

describe('tcs simulate, stopped by Ctrl-C', () => {
  it('exits 130 after the current cycle with a partial report and a valid event store', async () => {
    const out = path('interrupted');
    const proc = startTcs(
      ['simulate', '--cycles', '10000000', '--seed', '3', '--symbols', SYMBOLS, '--out', out],
      { TCS_TEST_SIM_FLUSH_EVERY: '16' },
      root,
    );
    try {
      // Progress is seen in the files: equity.csv is streamed in chunks as the run goes (of 16 rows
      // here, by the test-only knob; 1,024 otherwise).
      const equity = join(out, 'equity.csv');
      const size = () => {
        try {
          return statSync(equity).size;
        } catch {
          return 0;
        }
      };
      for (let i = 0; i < 300 && size() <= EQUITY_HEADER.length + 1; i++) {
        expect(proc.child.exitCode, proc.stderr()).toBeNull();
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(size()).toBeGreaterThan(EQUITY_HEADER.length + 1);
      proc.child.kill('SIGINT');
      const { code } = await exitWithin(proc, 10_000);
      expect(code, proc.stderr()).toBe(130);
    } finally {
      await proc.stop('SIGKILL');
    }
    const summary = summaryOf(out);
    expect(summary.partial).toBe(true);
    expect(summary.cycles).toBeGreaterThan(0);
    expect(summary.cycles).toBeLessThan(10_000_000);
    expect(csvLines(out, 'equity.csv')).toHaveLength((summary.cycles as number) + 1);
    expect(statSync(join(out, 'report.html')).size).toBeGreaterThan(0);
    expect(proc.stdout()).toMatch(/^Cycles\s/m);

    const verify = await tcs(['audit', 'verify'], { STORE_URL: `sqlite:${join(out, 'events.db')}` });
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toContain(`audit trail intact: ${summary.cycles as number} entries`);
  }, 60_000);
});

describe('tcs simulate, bad arguments', () => {
  it('refuses each argument mistake with a ConfigError naming it, before writing anything', () => {
    // Arguments are checked in the parent before any run starts: which are refused, and with which
    // words, is parsing logic, run in this process. The exit code, stderr and empty stdout of a
    // refusal are the real command's, in the next test.
    const out = path('never-written');
    const cases: [string[], RegExp][] = [
      [['--cycles', '10'], /needs --out DIR/],
      [['--out', out], /needs --cycles N/],
      [['--cycles', '0', '--out', out], /--cycles must be a whole number from 1/],
      [['--cycles', 'ten', '--out', out], /--cycles must be a whole number/],
      [['--cycles', '10', '--out', out, '--from', '2024-01-01T00:00'], /--from must be an ISO date .* with a zone/],
      [['--cycles', '10', '--out', out, '--data', path('no-such-data')], /--data .*no-such-data: no such directory/],
      [['--data', root, '--seed', '1', '--out', out], /--seed is for the synthetic market/],
    ];
    for (const [args, message] of cases) {
      expect(() => parseSimulateArgs(args), args.join(' ')).toThrow(ConfigError);
      expect(() => parseSimulateArgs(args), args.join(' ')).toThrow(message);
    }
    expect(() => statSync(out)).toThrow();
  });

  it('exits 2 with a message naming the mistake, and writes nothing', async () => {
    // An option refused in the parent, and settings only the simulation's own process meets.
    const out = path('never-written');
    const cases: [string[], RegExp][] = [
      [['--cycles', '10', '--out', out, '--bogus'], /Unknown option '--bogus'/],
      [['--cycles', '10', '--out', out, '--symbols', 'btcusdt'], /SYMBOLS.*upper case/],
      [
        ['--cycles', '10', '--out', out, '--strategies', 'momentum-ma-crossover'],
        /"momentum-ma-crossover" is not a known strategy.*did you mean momentum_ma_crossover\?/,
      ],
      [['--cycles', '10', '--out', out, '--strategies', 'nonsense'], /"nonsense" is not a known strategy/],
    ];
    for (const [args, message] of cases) {
      const res = await tcs(['simulate', ...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(message);
      expect(res.stdout, args.join(' ')).toBe('');
    }
    expect(() => statSync(out)).toThrow();
  }, 60_000);

  it('refuses a non-empty --out and leaves its files as they were', async () => {
    const out = path('old-run');
    mkdirSync(out);
    writeFileSync(join(out, 'summary.json'), '{"cycles":1}\n');
    const res = await tcs(['simulate', '--cycles', '10', '--out', out, '--quiet']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`--out ${out} is not empty`);
    expect(readdirSync(out)).toEqual(['summary.json']);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe('{"cycles":1}\n');
  });

  it('answers --help with the usage, exit 0', async () => {
    const res = await tcs(['simulate', '--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^Usage: tcs simulate --cycles N/);
  });

  it('runs every flag example the help gives (`--flag LIST … e.g. VALUE`) as it is written', async () => {
    const help = (await tcs(['simulate', '--help'])).stdout;
    const examples = [...help.matchAll(/^ {2}(--[a-z-]+) [A-Z]+ .*\be\.g\. (\S+)/gm)].map(
      ([, flag, value]) => [flag!, value!] as const,
    );
    expect(examples.map(([flag]) => flag)).toEqual(['--strategies', '--symbols']);
    for (const [flag, value] of examples) {
      const out = path(`example${flag}`);
      const res = await tcs(['simulate', '--cycles', '3', '--out', out, '--quiet', flag, value]);
      expect(res.stderr, `${flag} ${value}`).toBe('');
      expect(res.code, `${flag} ${value}`).toBe(0);
    }
  }, 60_000);
});

describe('tcs simulate --data, a perpetual without funding rates', () => {
  it('is refused with exit 2 naming the file and the fix, writing nothing; as spot it runs', async () => {
    const data = path('candles-only');
    mkdirSync(join(data, 'candles'), { recursive: true });
    const rows = Array.from({ length: 5 }, (_, i) => `${Date.UTC(2024, 0, 1) + i * 60_000},100,101,99,100,10`);
    writeFileSync(
      join(data, 'candles', 'BTCUSDT.csv'),
      ['timestamp,open,high,low,close,volume', ...rows, ''].join('\n'),
    );
    const out = path('candles-only-run');
    const refused = await tcs(['simulate', '--data', data, '--out', out, '--quiet']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `--data ${data}: funding/BTCUSDT.csv: BTCUSDT is a perpetual but its funding rates are missing: add them`,
    );
    expect(refused.stderr).toContain('or trade it as spot');
    expect(() => statSync(out)).toThrow();
    // Five candles: as much warm-up as a one-minute 2/3 average needs (the default's is hours).
    const short = { STRATEGY_PARAMS: JSON.stringify({ momentum_ma_crossover: { fast: 2, slow: 3, timeframe: '1m' } }) };
    const spot = await tcs(['simulate', '--data', data, '--symbols', 'BTCUSDT:spot', '--out', out, '--quiet'], short);
    expect(spot.stderr).toBe('');
    expect(spot.code).toBe(0);
    // Three candles of warm-up (the third is the first cycle's): cycles on candles 3, 4 and 5.
    expect(summaryOf(out).cycles).toBe(3);
  });
});

describe('tcs simulate killed outright', () => {
  const FLUSH_EVERY = 200;
  it('leaves an event store that is whole as of its last commit (SIGKILL mid-transaction)', async () => {
    const out = path('sigkill');
    // The run commits its store and writes equity.csv every 200 cycles (the test-only knob; every
    // 2,000 and 1,024 otherwise), so the test needs hundreds of cycles, not thousands.
    const proc = startTcs(
      ['simulate', '--cycles', '10000000', '--seed', '5', '--symbols', SYMBOLS, '--out', out, '--quiet'],
      { TCS_TEST_SIM_FLUSH_EVERY: String(FLUSH_EVERY) },
      root,
    );
    try {
      // Past the first commit (200 cycles) and into the next open transaction: 400 rows of
      // equity.csv mean the 400th cycle has ended.
      const equity = join(out, 'equity.csv');
      const rows = () => {
        try {
          return readFileSync(equity, 'utf8').split('\n').length - 2;
        } catch {
          return 0;
        }
      };
      for (let i = 0; i < 600 && rows() < 2 * FLUSH_EVERY; i++) {
        expect(proc.child.exitCode, proc.stderr()).toBeNull();
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(rows()).toBeGreaterThanOrEqual(2 * FLUSH_EVERY);
      // The simulating process is the child `tcs simulate` starts (simulate-process.ts): kill it, and
      // the parent goes with it (it exits as its child did).
      const [simulating] = childPids(proc.child.pid!);
      expect(simulating, 'the simulating child process').toBeDefined();
      process.kill(simulating!, 'SIGKILL');
      await exitWithin(proc, 10_000);
    } finally {
      await proc.stop('SIGKILL');
    }
    const verify = await tcs(['audit', 'verify'], { STORE_URL: `sqlite:${join(out, 'events.db')}` });
    expect(verify.code, verify.stderr).toBe(0);
    const entries = Number(/audit trail intact: (\d+) entries/.exec(verify.stdout)?.[1]);
    // Whole commits only: a multiple of 200 cycles (and at least the first).
    expect(entries).toBeGreaterThanOrEqual(FLUSH_EVERY);
    expect(entries % FLUSH_EVERY).toBe(0);
  }, 90_000);
});

describe('tcs simulate with the circuit breaker', () => {
  it('ends the run where the breaker killed trading: a partial report, and says so', async () => {
    const out = path('breaker');
    // A breaker this tight trips within the first few hundred cycles of seed 1's market.
    const res = await tcs(['simulate', '--cycles', '20000', '--seed', '1', '--out', out], {
      CIRCUIT_BREAKER_DRAWDOWN: '0.002',
    });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/the circuit breaker killed trading after (\d+) cycles/);
    const summary = summaryOf(out);
    expect(summary.partial).toBe(true);
    expect(summary.max_drawdown as number).toBeGreaterThanOrEqual(0.002);
    const cycles = Number(/after (\d+) cycles/.exec(res.stderr)![1]);
    expect(summary.cycles).toBe(cycles);
    expect(cycles).toBeLessThan(20_000);
    // The kill was written on the run's own connection while the decisions went through the audit
    // thread (this machine has a second core): one chain, the kill after the decisions before it.
    const verify = await tcs(['audit', 'verify'], { STORE_URL: `sqlite:${join(out, 'events.db')}` });
    expect(verify.code, verify.stderr).toBe(0);
    const db = new Database(join(out, 'events.db'), { readonly: true });
    try {
      const kinds = (db.prepare('SELECT kind FROM events ORDER BY seq').all() as { kind: string }[]).map((r) => r.kind);
      const kill = kinds.indexOf('control');
      expect(kill).toBeGreaterThan(0);
      expect(kinds.slice(0, kill).filter((k) => k === 'decision')).toHaveLength(cycles);
    } finally {
      db.close();
    }
  });
});

describe('tcs simulate with a strategy that throws', () => {
  it('counts the agent errors in the summary, prints the first, and warns on stderr once', async () => {
    const out = path('throwing');
    const throwing = fileURLToPath(new URL('../fixtures/strategies/throwing.js', import.meta.url));
    const res = await tcs([
      'simulate',
      '--cycles',
      '50',
      '--seed',
      '1',
      '--symbols',
      SYMBOLS,
      '--strategies',
      `momentum_ma_crossover,${throwing}`,
      '--out',
      out,
      '--quiet',
    ]);
    expect(res.code, res.stderr).toBe(0);
    const summary = summaryOf(out);
    // Two symbols a cycle, every cycle.
    expect(summary.agent_errors).toBe(100);
    expect(summary.agent_errors_by_agent).toEqual({ throwing: 100 });
    expect(summary.first_agent_error).toEqual({
      agent: 'throwing',
      symbol: 'BTCUSDT',
      message: 'no model for BTCUSDT',
    });
    expect(res.stdout).toMatch(/^Agent errors\s+100$/m);
    expect(res.stdout).toMatch(/^First agent error: throwing on BTCUSDT: no model for BTCUSDT$/m);
    // The warnings are limited by the wall clock in a simulation (its minute passes every cycle):
    // a run this short warns once.
    const warnings = res.stderr.split('\n').filter((l) => l.includes('"agent":"throwing"'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, symbol: 'BTCUSDT', suppressed: 0 });
  });
});

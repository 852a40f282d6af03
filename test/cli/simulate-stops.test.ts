/**
 * Protective exits through `tcs simulate --data` (issue 20, item 4) on a hand-made falling market
 * (test/fixtures/market-data/falling: three perpetuals rising gently for 500 one-minute candles,
 * enough warm-up for the default strategies' 8 hours of 15-minute candles, then falling 1.2 % a
 * minute for 20 minutes, then flat for 10). The momentum strategy is long into the fall. With
 * STOP_LOSS=0.03 its positions are closed with fills marked `stop_loss` in trades.csv and the
 * summary, and the run's drawdown is smaller than without; with COOLDOWN_AFTER_STOP the agent's
 * signals for a stopped symbol are skipped COOLDOWN in the decision entries instead of re-entering.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';

const DATA = fileURLToPath(new URL('../fixtures/market-data/falling', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'tcs-stops-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  summary: { max_drawdown: number; exits_by_reason: Record<string, number>; cycles: number };
  trades: Record<string, string>[];
  decisions: { cycle: number; proposals: { exit?: { reason: string }; skipped: { code: string } | null }[] }[];
  stderr: string;
}

async function simulate(name: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const out = join(root, name);
  const base = { SYMBOLS: 'BTCUSDT,ETHUSDT,SOLUSDT', ARBITER_MAX_ORDERS: '3' };
  const proc = startTcs(['simulate', '--data', DATA, '--out', out, '--quiet'], { ...base, ...env }, root);
  const { code } = await exitWithin(proc, 60_000);
  expect(code).toBe(0);
  const [header, ...rows] = readFileSync(join(out, 'trades.csv'), 'utf8').trimEnd().split('\n');
  const columns = header!.split(',');
  const db = new Database(join(out, 'events.db'), { readonly: true });
  const decisions = db
    .prepare("SELECT body FROM events WHERE kind = 'decision' ORDER BY seq")
    .all()
    .map((r) => JSON.parse((r as { body: string }).body) as Run['decisions'][number]);
  db.close();
  return {
    summary: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Run['summary'],
    trades: rows.map((line) => Object.fromEntries(line.split(',').map((v, i) => [columns[i], v]))),
    decisions,
    stderr: proc.stderr(),
  };
}

describe('tcs simulate --data <falling market> with protective exits', () => {
  let plain: Run;
  let stopped: Run;
  let cooled: Run;
  beforeAll(async () => {
    [plain, stopped, cooled] = await Promise.all([
      simulate('plain', {}),
      simulate('stop', { STOP_LOSS: '0.03' }),
      simulate('cooldown', { STOP_LOSS: '0.03', COOLDOWN_AFTER_STOP: '30' }),
    ]);
  }, 90_000);

  it('without STOP_LOSS the longs ride the whole fall: no exit, every fill an order', () => {
    expect(plain.summary.exits_by_reason).toEqual({ stop_loss: 0, take_profit: 0, trailing_stop: 0 });
    expect(new Set(plain.trades.map((t) => t.kind))).toEqual(new Set(['order']));
    expect(plain.summary.max_drawdown).toBeGreaterThan(0.05);
  });

  it('with STOP_LOSS=0.03 the closes are marked stop_loss (trades.csv, summary, decision) and the drawdown is smaller', () => {
    const exits = stopped.trades.filter((t) => t.kind === 'stop_loss');
    expect(exits.length).toBeGreaterThanOrEqual(3);
    expect(new Set(exits.map((t) => t.symbol))).toEqual(new Set(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']));
    for (const t of exits) {
      expect(t.side).toBe('SELL');
      expect(t.strategy).toBe('momentum_ma_crossover');
      expect(Number(t.position_after)).toBe(0);
    }
    expect(stopped.summary.exits_by_reason.stop_loss).toBe(exits.length);
    const marked = stopped.decisions.flatMap((d) => d.proposals.filter((p) => p.exit));
    expect(marked.length).toBe(exits.length);
    expect(marked.every((p) => p.exit!.reason === 'stop_loss')).toBe(true);
    expect(stopped.summary.max_drawdown).toBeLessThan(plain.summary.max_drawdown);
  });

  it('warns only where the cooldown removed most signals, naming COOLDOWN_AFTER_STOP (the signal funnel)', () => {
    expect(plain.stderr).toBe('');
    expect(stopped.stderr).toBe('');
    expect(cooled.stderr).toMatch(
      /^warning: momentum_ma_crossover: \d+ of \d+ .* COOLDOWN; .*COOLDOWN_AFTER_STOP .*\n$/,
    );
  });

  it('with COOLDOWN_AFTER_STOP=30 the stopped agent does not re-enter: its signals are skipped COOLDOWN', () => {
    const exits = cooled.trades.filter((t) => t.kind === 'stop_loss');
    expect(exits.length).toBe(3);
    const exitCycle = cooled.decisions.find((d) => d.proposals.some((p) => p.exit))!.cycle;
    const after = cooled.decisions.filter((d) => d.cycle > exitCycle);
    expect(after.length).toBeGreaterThan(0);
    for (const d of after) {
      expect(d.proposals.filter((p) => p.skipped?.code === 'COOLDOWN').length).toBe(3);
      expect(d.proposals.every((p) => p.skipped !== null)).toBe(true);
    }
    expect(cooled.summary.max_drawdown).toBeLessThan(stopped.summary.max_drawdown);
  });
});

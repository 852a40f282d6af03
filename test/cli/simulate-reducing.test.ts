/**
 * Issue 20's "Done when" on the hand-made falling market (test/fixtures/market-data/falling: three
 * perpetuals rising gently, then falling 1.2 % a minute for 20 minutes, then flat), through `tcs
 * simulate --data` with RISK_FRACTION=1 and ARBITER_MAX_ORDERS=3 (the issue's figures: 32.3 % drawdown
 * against a 10 % limit, and 138,360 USDT still open after the breaker on the code before it).
 *  - RISK_MAX_DRAWDOWN=0.10: the engine enters `reducing` and closes everything itself (trades.csv
 *    kind `risk_reduce`); the run's drawdown stays within the limit plus one cycle's move at the
 *    allowed leverage (1.2 % × RISK_MAX_LEVERAGE 3), and nothing is reopened while reducing.
 *  - CIRCUIT_BREAKER_DRAWDOWN=0.10 (and a looser drawdown limit): the kill flattens; the account is flat.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitWithin, startTcs } from '../support/processes.js';

const DATA = fileURLToPath(new URL('../fixtures/market-data/falling', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'tcs-reducing-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** One minute's fall of the fixture at the allowed leverage: what a cycle can lose before the engine acts. */
const ONE_CYCLE = 0.012 * 3;

interface Decision {
  cycle: number;
  risk_state?: string;
  risk: { client_order_id: string; approved: boolean; guards: { code: string }[] }[];
  account: { positions: { symbol: string; qty: number }[] } | null;
}
interface Run {
  summary: { max_drawdown: number; final_nav: number };
  trades: Record<string, string>[];
  decisions: Decision[];
  events: { kind: string; body: Record<string, unknown> }[];
  positions: { symbol: string; qty: number }[];
}

async function simulate(name: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const out = join(root, name);
  const base = { SYMBOLS: 'BTCUSDT,ETHUSDT,SOLUSDT', ARBITER_MAX_ORDERS: '3', RISK_FRACTION: '1' };
  const proc = startTcs(['simulate', '--data', DATA, '--out', out, '--quiet'], { ...base, ...env }, root);
  const { code } = await exitWithin(proc, 60_000);
  expect(code).toBe(0);
  const [header, ...rows] = readFileSync(join(out, 'trades.csv'), 'utf8').trimEnd().split('\n');
  const columns = header!.split(',');
  const db = new Database(join(out, 'events.db'), { readonly: true });
  const events = db
    .prepare('SELECT kind, body FROM events ORDER BY seq')
    .all()
    .map((r) => {
      const row = r as { kind: string; body: string };
      return { kind: row.kind, body: JSON.parse(row.body) as Record<string, unknown> };
    });
  db.close();
  const decisions = events.filter((e) => e.kind === 'decision').map((e) => e.body as unknown as Decision);
  const trades = rows.map((line) => Object.fromEntries(line.split(',').map((v, i) => [columns[i], v])));
  const held = new Map<string, number>();
  for (const t of trades) held.set(t.symbol!, Number(t.position_after));
  return {
    summary: JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Run['summary'],
    trades,
    decisions,
    events,
    positions: [...held].map(([symbol, qty]) => ({ symbol, qty })),
  };
}

describe('tcs simulate --data <falling market>: reducing and the breaker', () => {
  let reducing: Run;
  let breaker: Run;
  beforeAll(async () => {
    [reducing, breaker] = await Promise.all([
      simulate('reducing', { RISK_MAX_DRAWDOWN: '0.10' }),
      simulate('breaker', { RISK_MAX_DRAWDOWN: '0.5', CIRCUIT_BREAKER_DRAWDOWN: '0.10' }),
    ]);
  }, 90_000);

  it('RISK_MAX_DRAWDOWN=0.10: the drawdown stays within the limit plus one cycle at the allowed leverage', () => {
    expect(reducing.summary.max_drawdown).toBeGreaterThan(0.1);
    expect(reducing.summary.max_drawdown).toBeLessThanOrEqual(0.1 + ONE_CYCLE);
  });

  it('the engine closed every position itself, reduce-only, marked risk_reduce, and the account ends flat', () => {
    const own = reducing.trades.filter((t) => t.kind === 'risk_reduce');
    expect(new Set(own.map((t) => t.symbol))).toEqual(new Set(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']));
    for (const t of own) expect(t.side).toBe('SELL');
    expect(reducing.positions.every((p) => p.qty === 0)).toBe(true);
  });

  it('the transition is an audit entry, the decision entries carry the state, nothing reopens while reducing', () => {
    const changes = reducing.events.filter((e) => e.kind === 'risk_state');
    expect(changes.map((e) => `${String(e.body.from)}→${String(e.body.to)}`)).toEqual(['active→reducing']);
    expect(String(changes[0]!.body.reason)).toMatch(/exceeds RISK_MAX_DRAWDOWN 10\.00%/);
    const first = reducing.decisions.findIndex((d) => d.risk_state === 'reducing');
    expect(first).toBeGreaterThan(0);
    const later = reducing.decisions.slice(first);
    expect(later.every((d) => d.risk_state === 'reducing')).toBe(true);
    const reopened = reducing.trades.filter(
      (t) =>
        t.kind !== 'risk_reduce' &&
        Date.parse(t.ts!) > Date.parse(reducing.trades.find((x) => x.kind === 'risk_reduce')!.ts!),
    );
    expect(reopened).toEqual([]);
  });

  it('CIRCUIT_BREAKER_DRAWDOWN=0.10: killed, flattened, and the account is flat after the breaker', () => {
    const kill = breaker.events.find((e) => e.kind === 'control' && e.body.to === 'killed');
    expect(kill?.body.actor).toBe('trading:circuit-breaker');
    expect(breaker.positions.length).toBe(3);
    expect(breaker.positions.every((p) => p.qty === 0)).toBe(true);
    const halted = breaker.events.filter((e) => e.kind === 'risk_state').map((e) => e.body.to);
    expect(halted).toContain('halted');
  });
});

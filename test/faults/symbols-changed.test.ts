/**
 * Issue 30, finding 12: a close is never refused, whatever the configuration says now. A first
 * `tcs start` with SYMBOLS=BTCUSDT,ETHUSDT buys BTCUSDT; the second runs with SYMBOLS=ETHUSDT on the
 * same store. The BTCUSDT position is still held: /health names it as orphaned, the trading process
 * warns at start, and the operator closes it through the API: a deleverage halves it and a flatten
 * of its symbol ends `flat`, though BTCUSDT is no longer whitelisted nor fed by the market data.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { callApi, eventually } from '../support/fault-api.js';
import { startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { endAll, eventLines, scratch, SLOW_BOUND_MS, traderEnv } from './support.js';

const CALL_BOUND_MS = 10_000;

describe('after SYMBOLS changed, a position in a symbol no longer listed', () => {
  const dirs = scratch();
  const procs: RunningProcess[] = [];
  afterEach(async () => {
    await endAll(procs.splice(0));
    dirs.removeAll();
  });

  it('is shown orphaned (start warning, /health degraded) and closed by deleverage and flatten through the API', async () => {
    const dir = dirs.dir('symbols-changed');
    const key = generateKey();
    const secret = generateKey();
    const url = `sqlite:${join(dir, 'tcs.db')}`;
    let base = '';
    const start = async (extra: Record<string, string>) => {
      await endAll(procs);
      const env = { ...traderEnv(url, { ORDER_STYLE: 'market', ...extra }), RISK_HMAC_SECRET: secret };
      const proc = startTcs(['start'], { ...env, SERVICE_API_KEY: key, PORT: '0' }, dir);
      procs.push(proc);
      base = (await proc.waitFor(/"address":"(http:\/\/127\.0\.0\.1:\d+)"/, SLOW_BOUND_MS))[1]!;
      return proc;
    };
    const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
      callApi(base, key, method, path, body, CALL_BOUND_MS);
    const btcPosition = async () => {
      const portfolio = await call('GET', '/control/portfolio');
      const positions = portfolio.body.positions as Array<{ symbol: string; qty: number }>;
      return positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;
    };

    const first = await start({ SYMBOLS: 'BTCUSDT,ETHUSDT' });
    await first.waitFor(/"event":"order_filled"[^\n]*"symbol":"BTCUSDT"/, SLOW_BOUND_MS);
    await first.waitFor(/"event":"cycle_end"/, SLOW_BOUND_MS);

    // The same store, BTCUSDT no longer listed: the strategy has nothing to trade, the position stays.
    const second = await start({ SYMBOLS: 'ETHUSDT' });
    // Said at start, on stderr, with the call that closes it.
    await second.waitFor(/tcs: 1 orphaned position[^\n]*BTCUSDT [\d.]+ \(not in SYMBOLS\)[^\n]*flatten/, SLOW_BOUND_MS);
    await eventually(async () => (await btcPosition()) > 0, 'the BTCUSDT position published', SLOW_BOUND_MS);
    const held = await btcPosition();

    let health = await call('GET', '/health');
    await eventually(
      async () => (health = await call('GET', '/health')).body.status === 'degraded',
      '/health degraded',
      SLOW_BOUND_MS,
    );
    expect(health.status).toBe(200);
    expect(health.body.components).toMatchObject({
      positions: {
        status: 'orphaned',
        orphaned: [{ symbol: 'BTCUSDT', qty: held, why: 'symbol_not_listed' }],
        resolve: 'POST /control/flatten {"symbols":["BTCUSDT"]}',
      },
    });
    expect(String(health.body.reason)).toContain('orphaned positions no configured strategy closes: BTCUSDT');

    const deleverage = await call('POST', '/control/deleverage', { symbol: 'BTCUSDT', reduce_pct: 0.5 });
    expect(deleverage.status, JSON.stringify(deleverage.body)).toBe(200);
    const deleverageId = deleverage.body.command_id as string;
    await second.waitFor(new RegExp(`"event":"command_executed","command_id":"${deleverageId}"`), SLOW_BOUND_MS);
    const executed = eventLines(second).find((l) => l.event === 'command_executed' && l.command_id === deleverageId);
    expect(executed?.status).toBe('submitted'); // a deleverage's order went to the venue
    await eventually(async () => (await btcPosition()) < held, 'the halved position published', SLOW_BOUND_MS);
    expect(await btcPosition()).toBeGreaterThan(0);

    const flatten = await call('POST', '/control/flatten', { symbols: ['BTCUSDT'], reason: 'close what SYMBOLS left' });
    expect(flatten.status, JSON.stringify(flatten.body)).toBe(200);
    const flattenId = flatten.body.command_id as string;
    await second.waitFor(new RegExp(`"event":"flatten_completed","command_id":"${flattenId}"`), SLOW_BOUND_MS);
    const completed = eventLines(second).find((l) => l.event === 'flatten_completed' && l.command_id === flattenId);
    expect(completed).toMatchObject({ status: 'flat', closed: ['BTCUSDT'], remaining: [] });
    await eventually(async () => (await btcPosition()) === 0, 'the flat account published', SLOW_BOUND_MS);
    // Nothing orphaned any more: /health is ok again.
    await eventually(
      async () => (health = await call('GET', '/health')).body.status === 'ok',
      '/health ok once flat',
      SLOW_BOUND_MS,
    );
    expect(health.body.components).toMatchObject({ positions: { status: 'ok', orphaned: [] } });
  }, 240_000);
});

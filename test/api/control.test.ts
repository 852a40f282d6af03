/**
 * Control and report endpoints on both stores: the spec's responses, the choices for its "not
 * shown" cases, commands queued for the trading process, the decision log with its filters, and
 * the rate limit (which never touches the kill switch).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import type { PortfolioDocument } from '../../src/domain/runtime-documents.js';
import { keyId } from '../../src/domain/keys.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { STORE_KINDS } from '../support/stores.js';

const ALL_INSTRUCTIONS = [
  { tool: 'cancel_all_orders', symbol: 'BTCUSDT' },
  { tool: 'cancel_all_orders', symbol: 'ETHUSDT' },
  { tool: 'cancel_spot_all_orders', symbol: 'SOLUSDT' },
];

function portfolio(positions: Array<{ symbol: string; qty: number }>): PortfolioDocument {
  return {
    nav: 100_000,
    peakNav: 100_000,
    cash: 100_000,
    realizedPnl: 0,
    unrealizedPnl: 0,
    fundingPnl: 0,
    feesPaid: 0,
    openOrders: [],
    ts: 0,
    positions: positions.map((p) => ({
      ...p,
      kind: 'perp',
      entryPrice: 100,
      markPrice: 100,
      unrealizedPnl: 0,
      realizedPnl: 0,
    })),
  };
}

describe.each(STORE_KINDS)('control endpoints on %s', (kind) => {
  let api: TestApi;
  afterEach(async () => api?.close());
  const post = (url: string, payload?: object) =>
    api.app.inject({ method: 'POST', url, headers: api.auth, ...(payload ? { payload } : {}) });
  const get = (url: string) => api.app.inject({ method: 'GET', url, headers: api.auth });

  it('reports the default mode and the status', async () => {
    api = await openTestApi(kind);
    expect((await get('/control/mode')).json()).toEqual({ default_mode: 'paper' });
    expect((await get('/control/status')).json()).toEqual({
      state: 'running',
      epoch: 0,
      reason: null,
      changed_at: expect.any(String),
    });
  });

  it('in live mode names the exchange and whether it is the testnet (paper keeps the spec body exactly)', async () => {
    api = await openTestApi(kind, { exchange: { exchange: 'binanceusdm', testnet: true } });
    expect((await get('/control/mode')).json()).toEqual({
      default_mode: 'live',
      exchange: 'binanceusdm',
      testnet: true,
    });
  });

  it('pause and resume: idempotent repeats answer 200 with changed=false and keep the epoch', async () => {
    api = await openTestApi(kind);
    expect((await post('/control/pause', { reason: 'maintenance' })).json()).toMatchObject({
      state: 'paused',
      previous_state: 'running',
      changed: true,
      epoch: 1,
      reason: 'maintenance',
    });
    expect((await post('/control/pause', { reason: 'again' })).json()).toMatchObject({
      state: 'paused',
      previous_state: 'paused',
      changed: false,
      epoch: 1,
      reason: 'maintenance',
    });
    expect((await post('/control/resume')).json()).toMatchObject({ state: 'running', changed: true, epoch: 2 });
    const again = await post('/control/resume');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ state: 'running', changed: false, epoch: 2 });
  });

  it('kill switch: the spec shape with an instruction per whitelisted symbol and kind, repeatable with the recorded reason, queued once per kill', async () => {
    api = await openTestApi(kind);
    await post('/control/pause', { reason: 'first' });
    const res = await post('/control/kill-switch', { reason: 'exchange incident' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      action: 'killed',
      reason: 'exchange incident',
      cancel_instructions: ALL_INSTRUCTIONS,
    });
    // A repeated kill changes nothing, so it answers the reason the kill recorded, not the one it was sent.
    const repeat = await post('/control/kill-switch', { reason: 'pressed again' });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual({
      action: 'killed',
      reason: 'exchange incident',
      cancel_instructions: ALL_INSTRUCTIONS,
    });
    const [repeatAudit] = await api.store.events.query({ limit: 1 });
    expect(repeatAudit?.body).toMatchObject({ event: 'control.kill', reason: 'pressed again', outcome: 'unchanged' });
    expect((await get('/control/status')).json()).toMatchObject({
      state: 'killed',
      epoch: 2,
      reason: 'exchange incident',
    });
    const command = await api.store.commands.get('kill-cancels-epoch-2');
    expect(command).toMatchObject({
      type: 'kill_cancels',
      status: 'pending',
      payload: { instructions: ALL_INSTRUCTIONS },
    });
    const claimed = await api.store.commands.claim('t', { max: 10, leaseMs: 1000, now: Date.now() });
    expect(claimed.map((c) => c.id)).toEqual(['kill-cancels-epoch-2']);
  });

  it('killed cannot be left through the API: pause and resume → 409, state unchanged', async () => {
    api = await openTestApi(kind);
    await post('/control/kill-switch', { reason: 'stop' });
    for (const url of ['/control/resume', '/control/pause']) {
      const res = await post(url, {});
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        statusCode: 409,
        code: 'TCS_STATE_CONFLICT',
        error: 'Conflict',
        message: expect.stringContaining('killed'),
      });
    }
    expect((await get('/control/status')).json()).toMatchObject({ state: 'killed', epoch: 1 });
  });

  it('cancel-all: null covers the whitelist, a list covers those symbols; each call is a queued command', async () => {
    api = await openTestApi(kind);
    const all = (await post('/control/cancel-all', { symbols: null })).json();
    expect(all).toEqual({
      action: 'cancel_all',
      cancel_instructions: ALL_INSTRUCTIONS,
      command_id: expect.stringMatching(/^cancel-all-/),
    });
    const some = (await post('/control/cancel-all', { symbols: ['SOLUSDT', 'BTCUSDT'] })).json();
    expect(some.cancel_instructions).toEqual([
      { tool: 'cancel_spot_all_orders', symbol: 'SOLUSDT' },
      { tool: 'cancel_all_orders', symbol: 'BTCUSDT' },
    ]);
    expect(await api.store.commands.get(some.command_id)).toMatchObject({ type: 'cancel_all', status: 'pending' });
    // Allowed when killed too: cancels only reduce risk.
    await post('/control/kill-switch');
    expect((await post('/control/cancel-all', { symbols: ['ETHUSDT'] })).statusCode).toBe(200);
  });

  it('deleverage: reduce-only order opposite the position, floored to the lot size; a clear answer when flat', async () => {
    api = await openTestApi(kind);
    await api.store.kv.set(
      PORTFOLIO_KEY,
      portfolio([
        { symbol: 'BTCUSDT', qty: 0.0157 },
        { symbol: 'ETHUSDT', qty: -2 },
      ]),
    );
    const long = (await post('/control/deleverage', { symbol: 'BTCUSDT', reduce_pct: 0.5 })).json();
    expect(long).toMatchObject({
      action: 'deleverage',
      symbol: 'BTCUSDT',
      reduce_pct: 0.5,
      position_qty: 0.0157,
      order: { symbol: 'BTCUSDT', side: 'SELL', qty: 0.007, type: 'market', reduce_only: true },
    });
    expect(await api.store.commands.get(long.command_id)).toMatchObject({
      type: 'deleverage',
      payload: { symbol: 'BTCUSDT', reduce_pct: 0.5 },
    });
    const short = (await post('/control/deleverage', { symbol: 'ETHUSDT', reduce_pct: 1 })).json();
    expect(short.order).toEqual({ symbol: 'ETHUSDT', side: 'BUY', qty: 2, type: 'market', reduce_only: true });
    const flat = await post('/control/deleverage', { symbol: 'SOLUSDT', reduce_pct: 0.25 });
    expect(flat.statusCode).toBe(200);
    expect(flat.json()).toEqual({
      action: 'deleverage',
      symbol: 'SOLUSDT',
      reduce_pct: 0.25,
      position_qty: 0,
      order: null,
      command_id: null,
      message: 'no open position in SOLUSDT: nothing to deleverage',
    });
  });

  it('audits every control call with the key id and the reason', async () => {
    api = await openTestApi(kind);
    await post('/control/pause', { reason: 'why not' });
    await post('/control/cancel-all', { symbols: null });
    const [cancel, pause] = await api.store.events.query({ limit: 2 });
    expect(pause).toMatchObject({
      kind: 'control',
      body: { event: 'control.pause', reason: 'why not', outcome: 'changed', actor: keyId(api.key) },
    });
    expect(cancel).toMatchObject({ kind: 'control_call', body: { call: 'cancel_all', actor: keyId(api.key) } });
    expect((await api.store.events.verify()).ok).toBe(true);
  });

  it('serves decisions newest first with limit, before, symbol, since and until', async () => {
    api = await openTestApi(kind);
    for (let i = 1; i <= 6; i++) {
      await api.store.events.append({
        kind: 'decision',
        at: `2026-01-01T00:0${i}:00.000Z`,
        symbol: i % 2 ? 'BTCUSDT' : 'ETHUSDT',
        body: { cycle: i },
      });
      await api.store.events.append({
        kind: 'control_call',
        at: `2026-01-01T00:0${i}:30.000Z`,
        body: { call: 'noise' },
      });
    }
    const cycles = async (query: string) =>
      ((await get(`/reports/decisions?${query}`)).json() as Array<{ decision: { cycle: number } }>).map(
        (d) => d.decision.cycle,
      );
    expect(await cycles('')).toEqual([6, 5, 4, 3, 2, 1]);
    expect(await cycles('limit=2')).toEqual([6, 5]);
    const page1 = (await get('/reports/decisions?limit=2')).json() as Array<{ seq: number }>;
    expect(await cycles(`limit=2&before=${page1[1]!.seq}`)).toEqual([4, 3]);
    expect(await cycles('symbol=ETHUSDT')).toEqual([6, 4, 2]);
    expect(await cycles('since=2026-01-01T00:03:00.000Z&until=2026-01-01T00:05:00.000Z')).toEqual([4, 3]);
    const [first] = (await get('/reports/decisions?limit=1')).json();
    expect(first).toEqual({
      seq: 11,
      at: '2026-01-01T00:06:00.000Z',
      symbol: 'ETHUSDT',
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      prev_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      decision: { cycle: 6 },
    });
  });
});

describe('rate limit', () => {
  let api: TestApi;
  afterEach(async () => api?.close());

  it('throttles control POSTs per key with 429 but never the kill switch', async () => {
    api = await openTestApi('sqlite', { controlRateLimit: 3 });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await api.app.inject({ method: 'POST', url: '/control/pause', headers: api.auth })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    const limited = await api.app.inject({
      method: 'POST',
      url: '/control/cancel-all',
      headers: api.auth,
      payload: { symbols: null },
    });
    expect(limited.json()).toMatchObject({ statusCode: 429, code: 'TCS_RATE_LIMITED', error: 'Too Many Requests' });
    for (let i = 0; i < 10; i++) {
      expect(
        (await api.app.inject({ method: 'POST', url: '/control/kill-switch', headers: api.auth })).statusCode,
      ).toBe(200);
    }
    // Reads are not throttled either.
    expect((await api.app.inject({ method: 'GET', url: '/control/status', headers: api.auth })).statusCode).toBe(200);
  });
});

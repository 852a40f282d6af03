/**
 * POST /control/flatten and the kill switch's `flatten: true`, on both stores: authentication, bad
 * input refused naming the field with nothing queued, a flatten queued (and audited first) in every
 * state, and the kill switch's answer exactly the spec's with the flag true, false or absent, the
 * kill recorded before its flatten and that flatten queued once per kill.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { STORE_KINDS } from '../support/stores.js';

const SPEC_KILL_FIELDS = ['action', 'cancel_instructions', 'reason'];

describe.each(STORE_KINDS)('flatten on %s', (kind) => {
  let api: TestApi;
  // The two refusal tests share one API (an instance compiles every route's schemas, some 0.15 s
  // of CPU): each refused call must leave nothing, which a shared store shows as well.
  let refusing: TestApi | undefined;
  afterEach(async () => {
    if (api !== refusing) await api?.close();
  });
  afterAll(async () => refusing?.close());
  const post = (url: string, payload?: object) =>
    api.app.inject({ method: 'POST', url, headers: api.auth, ...(payload ? { payload } : {}) });
  const pending = async () =>
    (await api.store.commands.claim('t', { max: 50, leaseMs: 1000, now: Date.now() })).map((c) => c.id);

  it('401 without a valid key, and nothing queued', async () => {
    api = refusing ??= await openTestApi(kind);
    for (const headers of [{}, { authorization: 'Bearer wrong' }]) {
      const res = await api.app.inject({
        method: 'POST',
        url: '/control/flatten',
        headers,
        payload: { symbols: null },
      });
      expect(res.statusCode).toBe(401);
    }
    expect(await pending()).toEqual([]);
  });

  it('bad input: 422 naming the field, nothing queued or audited', async () => {
    api = refusing ??= await openTestApi(kind);
    const cases: Array<[object | undefined, RegExp]> = [
      [undefined, /body/],
      [{}, /symbols/],
      [{ symbols: 'BTCUSDT' }, /symbols/],
      [{ symbols: [] }, /symbols/],
      [{ symbols: ['doge-usdt'] }, /symbols/],
      [{ symbols: ['BTCUSDT', 'BTCUSDT'] }, /symbols/],
      [{ symbols: null, reason: '' }, /reason/],
      [{ symbols: null, reason: 7 }, /reason/],
      [{ symbols: null, force: true }, /force|additional/],
    ];
    for (const [payload, field] of cases) {
      const res = await post('/control/flatten', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().message, JSON.stringify(payload)).toMatch(field);
    }
    expect(await pending()).toEqual([]);
    expect(await api.store.events.query({ limit: 10 })).toEqual([]);
  });

  it('503 naming the bound when COMMAND_QUEUE_MAX commands are open; the kill switch still answers 200', async () => {
    api = await openTestApi(kind, { commandQueueMax: 2 });
    expect((await post('/control/flatten', { symbols: ['BTCUSDT'] })).statusCode).toBe(200);
    expect((await post('/control/cancel-all', { symbols: null })).statusCode).toBe(200);
    const full = await post('/control/flatten', { symbols: ['ETHUSDT'] });
    expect(full.statusCode).toBe(503);
    expect(full.json()).toMatchObject({ code: 'TCS_COMMAND_QUEUE_FULL' });
    expect(full.json().message).toMatch(/NOT queued.*2 commands.*COMMAND_QUEUE_MAX/);
    expect(full.headers['retry-after']).toBeDefined();
    expect(await pending()).toHaveLength(2);
    // Its request was audited before the queue refused it: the trail says it was refused, so no
    // request entry is left naming a command that never existed.
    const [refused, requested] = await api.store.events.query({ limit: 2 });
    expect(requested!.body).toMatchObject({ call: 'flatten', symbols: ['ETHUSDT'] });
    expect(refused!.body).toMatchObject({
      call: 'command_refused',
      command_id: requested!.body.command_id,
      why: expect.stringMatching(/COMMAND_QUEUE_MAX/),
    });
    expect(await api.store.commands.get(String(requested!.body.command_id))).toBeNull();
    const cancel = await post('/control/cancel-all', { symbols: null });
    expect(cancel.statusCode).toBe(503);
    const [cancelRefused, cancelRequested] = await api.store.events.query({ limit: 2 });
    expect(cancelRefused!.body).toMatchObject({
      call: 'command_refused',
      command_id: cancelRequested!.body.command_id,
    });
    // The kill and its own commands are never refused by the bound.
    const kill = await post('/control/kill-switch', { reason: 'queue full', flatten: true });
    expect(kill.statusCode).toBe(200);
    expect((await pending()).length).toBeGreaterThanOrEqual(1);
  });

  it('queues a flatten, audited first, with the positions the last portfolio shows open', async () => {
    api = await openTestApi(kind);
    const positions = SAMPLE_DOCUMENTS[PORTFOLIO_KEY].positions;
    const held = positions.find((p) => p.qty !== 0)!;
    await api.store.kv.set(PORTFOLIO_KEY, SAMPLE_DOCUMENTS[PORTFOLIO_KEY]);
    const res = await post('/control/flatten', { symbols: [held.symbol], reason: 'venue incident' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      action: 'flatten',
      symbols: [held.symbol],
      reason: 'venue incident',
      command_id: expect.stringMatching(/^flatten-/),
      positions: [{ symbol: held.symbol, qty: held.qty }],
      message: expect.stringContaining('queued'),
    });
    expect(await api.store.commands.get(body.command_id)).toMatchObject({
      type: 'flatten',
      status: 'pending',
      payload: { symbols: [held.symbol], reason: 'venue incident', actor: expect.any(String) },
    });
    const [audit] = await api.store.events.query({ limit: 1 });
    expect(audit).toMatchObject({
      kind: 'control_call',
      symbol: held.symbol,
      body: { call: 'flatten', via: 'flatten', symbols: [held.symbol], command_id: body.command_id },
    });
    // null: every position; with no portfolio published yet the answer says there may be nothing to do.
    await api.store.kv.delete(PORTFOLIO_KEY);
    const all = (await post('/control/flatten', { symbols: null })).json();
    expect(all).toMatchObject({ symbols: null, reason: 'flatten by operator', positions: [] });
    expect(all.message).toMatch(/nothing to do/);
  });

  it('a flood of identical flattens queues one: each repeat while it is open answers 202 with its id', async () => {
    api = await openTestApi(kind);
    const first = await post('/control/flatten', { symbols: ['BTCUSDT', 'ETHUSDT'], reason: 'flood' });
    expect(first.statusCode).toBe(200);
    const id = first.json().command_id as string;
    const entries = (await api.store.events.query({ limit: 100 })).length;
    // The same symbols in another order, and again: the open flatten's id, nothing new queued or audited.
    for (const symbols of [
      ['ETHUSDT', 'BTCUSDT'],
      ['BTCUSDT', 'ETHUSDT'],
    ]) {
      const repeat = await post('/control/flatten', { symbols, reason: 'flood again' });
      expect(repeat.statusCode).toBe(202);
      expect(repeat.json()).toMatchObject({ command_id: id, coalesced: true });
    }
    expect((await api.store.events.query({ limit: 100 })).length).toBe(entries);
    // Other symbols, or every position, are other flattens.
    const other = await post('/control/flatten', { symbols: ['BTCUSDT'] });
    expect(other.statusCode).toBe(200);
    expect(other.json().command_id).not.toBe(id);
    expect((await post('/control/flatten', { symbols: null })).statusCode).toBe(200);
    const queued = await pending();
    expect(queued).toHaveLength(3);
    expect(queued).toEqual(expect.arrayContaining([id, other.json().command_id]));
  });

  it('once the open flatten is done, the same flatten queues a new one', async () => {
    api = await openTestApi(kind);
    const id = (await post('/control/flatten', { symbols: ['BTCUSDT'] })).json().command_id as string;
    await api.store.commands.complete(id, { status: 'nothing' }, new Date().toISOString());
    const again = await post('/control/flatten', { symbols: ['BTCUSDT'] });
    expect(again.statusCode).toBe(200);
    expect(again.json().command_id).not.toBe(id);
  });

  it('is allowed while paused and while killed (it only reduces risk)', async () => {
    api = await openTestApi(kind);
    await post('/control/pause', { reason: 'maintenance' });
    const paused = await post('/control/flatten', { symbols: null });
    expect(paused.statusCode).toBe(200);
    await post('/control/kill-switch', { reason: 'stop' });
    const killed = await post('/control/flatten', { symbols: ['ETHUSDT'] });
    expect(killed.statusCode).toBe(200);
    expect(await pending()).toEqual(
      expect.arrayContaining([paused.json().command_id, killed.json().command_id, 'kill-cancels-epoch-2']),
    );
    expect((await api.app.inject({ method: 'GET', url: '/control/status', headers: api.auth })).json()).toMatchObject({
      state: 'killed',
    });
  });

  it.each([
    ['absent', undefined],
    ['false', false],
  ])('kill-switch with flatten %s: the spec answer, and no flatten queued', async (_, flatten) => {
    api = await openTestApi(kind);
    const res = await post('/control/kill-switch', {
      reason: 'incident',
      ...(flatten === undefined ? {} : { flatten }),
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(SPEC_KILL_FIELDS);
    expect(res.json()).toMatchObject({ action: 'killed', reason: 'incident' });
    expect(await api.store.commands.get('kill-flatten-epoch-1')).toBeNull();
    expect(await pending()).toEqual(['kill-cancels-epoch-1']);
  });

  it('kill-switch with flatten true: the spec answer; the kill recorded first, then one flatten per kill', async () => {
    api = await openTestApi(kind);
    const res = await post('/control/kill-switch', { reason: 'exchange incident', flatten: true });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(SPEC_KILL_FIELDS);
    expect(res.json()).toMatchObject({ action: 'killed', reason: 'exchange incident' });
    expect(await api.store.commands.get('kill-flatten-epoch-1')).toMatchObject({
      type: 'flatten',
      payload: { symbols: null, reason: 'exchange incident' },
    });
    const audit = (await api.store.events.query({ limit: 10 })).reverse();
    expect(audit.map((e) => e.body.event ?? e.body.call)).toEqual(['control.kill', 'flatten']);
    expect(audit[1]?.body).toMatchObject({ via: 'kill_switch', command_id: 'kill-flatten-epoch-1' });
    // Pressed again: the same answer, the same flatten (queued once).
    const again = await post('/control/kill-switch', { reason: 'again', flatten: true });
    expect(again.json()).toEqual(res.json());
    expect((await pending()).sort()).toEqual(['kill-cancels-epoch-1', 'kill-flatten-epoch-1']);
    // A bad flag is refused before anything happens.
    const bad = await post('/control/kill-switch', { flatten: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toMatch(/flatten/);
  });
});

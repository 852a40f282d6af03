/**
 * GET /control/machines on the real API and a real store (SQLite file and Redis): bearer auth, the
 * trees from the machine definitions, the active states as the trading process publishes them
 * (written here to the real store, as it writes them), a malformed document read as nothing
 * published (never a 500), a store failure as the usual 503, and the route in the OpenAPI document.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MACHINES_KEY } from '../../src/domain/runtime-documents.js';
import type { MachinesDocument } from '../../src/domain/runtime-documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { STORE_KINDS, openTestStore } from '../support/stores.js';
import { pino } from 'pino';
import { createMachinesReader } from '../../src/api/statecharts/machines-reader.js';

interface Node {
  id: string;
  key: string;
  type: string;
  children: Node[];
}
interface Body {
  published_at: string | null;
  cycle: number | null;
  machines: Array<{ id: string; label: string; root: Node; active: string[] }>;
}

const PUBLISHED: MachinesDocument = {
  ts: Date.UTC(2026, 0, 5, 12, 0, 0, 250),
  cycle: 42,
  active: {
    trading: ['trading', 'trading.control', 'trading.control.running', 'trading.control.running.cycling'],
    cycle: ['cycle', 'cycle.deciding', 'cycle.deciding.sizing'],
    'order-manager': ['oms', 'oms.mode', 'oms.mode.accepting', 'oms.work', 'oms.work.busy'],
  },
};

const ids = (node: Node): string[] => [node.id, ...node.children.flatMap(ids)];

describe.each(STORE_KINDS)('GET /control/machines (%s store)', (kind) => {
  let api: TestApi | null = null;
  // The 401 test and the read before anything was published share one API (an instance compiles
  // every route's schemas, some 0.15 s of CPU): neither writes anything.
  let untouched: TestApi | undefined;
  afterEach(async () => {
    if (api !== untouched) await api?.close();
    api = null;
  });
  afterAll(async () => untouched?.close());
  const get = async (t: TestApi, headers: Record<string, string> = t.auth) =>
    t.app.inject({ method: 'GET', url: '/control/machines', headers });

  it('401 without a key or with a wrong one', async () => {
    api = untouched ??= await openTestApi(kind);
    expect((await get(api, {})).statusCode).toBe(401);
    const wrong = await get(api, { authorization: 'Bearer not-the-key' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'TCS_UNAUTHORIZED' });
  });

  it('before anything was published: the three trees, published_at null and every active []', async () => {
    api = untouched ??= await openTestApi(kind);
    const res = await get(api);
    expect(res.statusCode).toBe(200);
    const body = res.json<Body>();
    expect(body.published_at).toBeNull();
    expect(body.cycle).toBeNull();
    expect(body.machines.map((m) => [m.id, m.root.id, m.active])).toEqual([
      ['trading', 'trading', []],
      ['cycle', 'cycle', []],
      ['order-manager', 'oms', []],
    ]);
    const oms = body.machines[2]!.root;
    expect(oms.type).toBe('parallel');
    expect(oms.children.map((c) => c.id)).toEqual(['oms.mode', 'oms.work']);
    // The whole depth is served (the node schema refers to itself).
    expect(ids(body.machines[0]!.root)).toContain('trading.control.running.cycling');
    expect(ids(body.machines[1]!.root)).toContain('cycle.deciding.submitting');
  });

  it('after the trading process published: its active states, cycle and time', async () => {
    api = await openTestApi(kind);
    await api.store.kv.set(MACHINES_KEY, PUBLISHED);
    const body = (await get(api)).json<Body>();
    expect(body.published_at).toBe('2026-01-05T12:00:00.250Z');
    expect(body.cycle).toBe(42);
    expect(Object.fromEntries(body.machines.map((m) => [m.id, m.active]))).toEqual(PUBLISHED.active);
    // Every published id names a node of its tree.
    for (const m of body.machines) for (const id of m.active) expect(ids(m.root), id).toContain(id);
  });

  it('a malformed document is read as nothing published, never a 500', async () => {
    api = await openTestApi(kind);
    for (const bad of [{ ...PUBLISHED, ts: 'yesterday' }, { ts: 1, cycle: null, active: { trading: 'x' } }, 'text']) {
      await api.store.kv.set(MACHINES_KEY, bad);
      const res = await get(api);
      expect(res.statusCode).toBe(200);
      const body = res.json<Body>();
      expect(body.published_at).toBeNull();
      expect(body.machines.every((m) => m.active.length === 0)).toBe(true);
    }
  });

  it('a store that fails answers 503 like every route', async () => {
    api = await openTestApi(kind);
    await api.store.close();
    const res = await get(api);
    expect(res.statusCode).toBe(503);
    expect(res.json().message).toMatch(/^Could not read the store/);
  });
});

describe('the machines reader', () => {
  it('logs a malformed document once until a good one is read again', async () => {
    const t = await openTestStore('sqlite');
    const logged: Array<{ level: number; msg: string }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    try {
      const reader = createMachinesReader(t.store.kv, log);
      await t.store.kv.set(MACHINES_KEY, { ts: 'now' });
      for (let i = 0; i < 3; i++) expect((await reader.read()).published_at).toBeNull();
      expect(logged.map((l) => [l.level, l.msg])).toEqual([[40, expect.stringContaining('malformed')]]);
      await t.store.kv.set(MACHINES_KEY, PUBLISHED);
      expect((await reader.read()).cycle).toBe(42);
      await t.store.kv.set(MACHINES_KEY, []);
      await reader.read();
      expect(logged).toHaveLength(2);
    } finally {
      await t.cleanup();
    }
  });
});

describe('the OpenAPI document', () => {
  it('lists GET /control/machines with bearer auth and the recursive state node', async () => {
    const api = await openTestApi('sqlite');
    try {
      const doc = (await api.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      const op = doc.paths['/control/machines'].get;
      expect(op.security).toEqual([{ bearerAuth: [] }]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401']));
      const node = doc.components.schemas.MachineStateNode;
      expect(node.properties.children.items).toEqual({ $ref: '#/components/schemas/MachineStateNode' });
      expect(doc.paths['/control/events'].get.responses['200'].description).toContain('`machines`');
    } finally {
      await api.close();
    }
  });
});

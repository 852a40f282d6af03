/**
 * The read-only routes the operator console reads: GET /control/portfolio (the published account
 * with drawdown, leverage and the trading process's margin figure), GET /control/deleverage/preview
 * (exactly the order POST /control/deleverage then prepares, with nothing queued or audited) and
 * GET /reports/audit-chain (the chain verified, and a broken one named). All behind the key.
 */
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { PORTFOLIO_KEY, TRADING_METRICS_KEY } from '../../src/domain/runtime-documents.js';
import type { PortfolioDocument } from '../../src/domain/runtime-documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

const PORTFOLIO: PortfolioDocument = {
  nav: 95_000,
  peakNav: 100_000,
  cash: 90_000,
  realizedPnl: -1_000,
  unrealizedPnl: 500,
  fundingPnl: -3,
  feesPaid: 12,
  ts: Date.UTC(2026, 0, 5, 12, 0, 0),
  positions: [
    {
      symbol: 'BTCUSDT',
      kind: 'perp',
      qty: 0.5,
      entryPrice: 60_000,
      markPrice: 61_000,
      unrealizedPnl: 500,
      realizedPnl: 0,
    },
    { symbol: 'ETHUSDT', kind: 'perp', qty: -2, entryPrice: 3_000, markPrice: 3_000, unrealizedPnl: 0, realizedPnl: 0 },
  ],
  openOrders: [
    {
      clientOrderId: 'c-1',
      symbol: 'BTCUSDT',
      side: 'BUY',
      qty: 0.1,
      type: 'limit',
      limitPrice: 60_500,
      reduceOnly: false,
      status: 'open',
      filledQty: 0,
      avgFillPrice: null,
      createdAt: Date.UTC(2026, 0, 5, 11, 59, 0),
      updatedAt: Date.UTC(2026, 0, 5, 11, 59, 0),
    },
  ],
};

describe('console data routes', () => {
  let api: TestApi;
  afterEach(async () => api?.close());
  const get = (url: string, headers: Record<string, string> = api.auth) =>
    api.app.inject({ method: 'GET', url, headers });

  it('GET /control/portfolio: nulls before anything is published, then the account and its figures', async () => {
    api = await openTestApi('sqlite');
    const empty = await get('/control/portfolio');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({
      published_at: null,
      nav: null,
      leverage: null,
      positions: [],
      open_orders: [],
    });
    expect(empty.json().symbols.map((s: { symbol: string }) => s.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);

    await api.store.kv.set(PORTFOLIO_KEY, PORTFOLIO);
    await api.store.kv.set(TRADING_METRICS_KEY, {
      ts: 0,
      text: '# HELP tcs_trading_margin_used x\ntcs_trading_margin_used{process="trading"} 3650.5\n',
    });
    const body = (await get('/control/portfolio')).json();
    const gross = 0.5 * 61_000 + 2 * 3_000;
    expect(body).toMatchObject({
      published_at: '2026-01-05T12:00:00.000Z',
      nav: 95_000,
      peak_nav: 100_000,
      drawdown: 0.05,
      gross_exposure: gross,
      leverage: gross / 95_000,
      margin_used: 3650.5,
      fees_paid: 12,
      // A portfolio from a release that did not publish the account's starting cash: unknown, not 0.
      starting_nav: null,
      pnl_since_start: null,
    });
    expect(body.positions[1]).toEqual({
      symbol: 'ETHUSDT',
      kind: 'perp',
      qty: -2,
      entry_price: 3_000,
      mark_price: 3_000,
      notional: 6_000,
      unrealized_pnl: 0,
      realized_pnl: 0,
    });
    expect(body.open_orders).toEqual([
      {
        client_order_id: 'c-1',
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'limit',
        qty: 0.1,
        filled_qty: 0,
        limit_price: 60_500,
        reduce_only: false,
        status: 'open',
        created_at: '2026-01-05T11:59:00.000Z',
      },
    ]);

    // The NAV the account started from, and the PnL since: NAV now − starting NAV.
    await api.store.kv.set(PORTFOLIO_KEY, { ...PORTFOLIO, startingCash: 100_000 });
    expect((await get('/control/portfolio')).json()).toMatchObject({
      nav: 95_000,
      starting_nav: 100_000,
      pnl_since_start: -5_000,
    });
  });

  it('GET /control/portfolio and the deleverage preview: a malformed or unknown-version account is 503 with the reason, logged once', async () => {
    const logged: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    api = await openTestApi('sqlite', { logger });
    const warnings = () => logged.filter((l) => l.level >= 40).map((l) => l.msg);
    for (const stored of [
      { ...PORTFOLIO, nav: 'lots' },
      { ...PORTFOLIO, positions: [{ symbol: 'BTCUSDT', qty: 2 }] },
      { ...PORTFOLIO, v: 7 },
    ]) {
      await api.store.kv.set(PORTFOLIO_KEY, stored);
      for (const url of [
        '/control/portfolio',
        '/control/portfolio',
        '/control/deleverage/preview?symbol=BTCUSDT&reduce_pct=0.5',
      ]) {
        const res = await get(url);
        expect(res.statusCode, `${url} ${JSON.stringify(stored)}`).toBe(503);
        expect(res.json()).toMatchObject({ code: 'TCS_DOCUMENT_INVALID' });
        expect(res.json().message).toContain('trading:portfolio');
      }
    }
    expect(warnings()).toHaveLength(1); // one line for the outage, not one per request
    await api.store.kv.set(PORTFOLIO_KEY, PORTFOLIO);
    expect((await get('/control/portfolio')).json().nav).toBe(95_000);
    await api.store.kv.set(PORTFOLIO_KEY, { ...PORTFOLIO, v: 7 });
    expect((await get('/control/portfolio')).statusCode).toBe(503);
    expect(warnings()).toHaveLength(2); // a new outage is logged again
  });

  it('GET /control/deleverage/preview: the order the POST then prepares, and nothing queued or audited', async () => {
    api = await openTestApi('sqlite');
    await api.store.kv.set(PORTFOLIO_KEY, PORTFOLIO);
    const entriesBefore = await api.store.events.count();
    const preview = await get('/control/deleverage/preview?symbol=ETHUSDT&reduce_pct=0.25');
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toEqual({
      symbol: 'ETHUSDT',
      reduce_pct: 0.25,
      position_qty: -2,
      order: { symbol: 'ETHUSDT', side: 'BUY', qty: 0.5, type: 'market', reduce_only: true },
      message: 'would queue a reduce-only BUY 0.5 ETHUSDT (market)',
    });
    expect(await api.store.events.count()).toBe(entriesBefore);
    expect(await api.store.commands.claim('test', { max: 10, leaseMs: 60_000, now: Date.now() })).toEqual([]);

    const sent = await api.app.inject({
      method: 'POST',
      url: '/control/deleverage',
      headers: api.auth,
      payload: { symbol: 'ETHUSDT', reduce_pct: 0.25 },
    });
    expect(sent.json().order).toEqual(preview.json().order);

    const flat = (await get('/control/deleverage/preview?symbol=SOLUSDT&reduce_pct=1')).json();
    expect(flat).toMatchObject({
      order: null,
      position_qty: 0,
      message: expect.stringMatching(/nothing to deleverage/),
    });
    expect((await get('/control/deleverage/preview?symbol=doge&reduce_pct=0.5')).statusCode).toBe(422);
    expect((await get('/control/deleverage/preview?symbol=BTCUSDT&reduce_pct=0')).statusCode).toBe(422);
    expect((await get('/control/deleverage/preview?symbol=BTCUSDT&reduce_pct=1.5')).statusCode).toBe(422);
  });

  it('GET /reports/audit-chain: intact with its count and head', async () => {
    api = await openTestApi('sqlite');
    await api.app.inject({ method: 'POST', url: '/control/pause', headers: api.auth });
    const body = (await get('/reports/audit-chain')).json();
    expect(body).toMatchObject({ ok: true, first_bad: null });
    expect(body.count).toBe(await api.store.events.count());
    expect(body.count).toBeGreaterThan(0);
    expect(body.head).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(body.checked_at)).not.toBeNaN();
  });

  it('GET /reports/audit-chain: calls that arrive together share one walk of the chain', async () => {
    // Found in review: on SQLite the walk ran synchronously, so the "shared" check never was.
    api = await openTestApi('sqlite');
    for (let i = 0; i < 4_000; i++)
      await api.store.events.append({ kind: 'note', at: new Date().toISOString(), body: { i } });
    const events = api.store.events;
    const verify = events.verify.bind(events);
    let walks = 0;
    events.verify = () => {
      walks += 1;
      return verify();
    };
    // Over real sockets: each request arrives in its own turn of the event loop, as from three consoles.
    const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
    const bodies = await Promise.all(
      [1, 2, 3].map(() =>
        fetch(`${base}/reports/audit-chain`, { headers: api.auth }).then(
          (r) => r.json() as Promise<{ ok: boolean; count: number; head: string }>,
        ),
      ),
    );
    expect(walks).toBe(1);
    expect(bodies.map((b) => [b.ok, b.count, b.head])).toEqual(Array(3).fill([true, 4_000, bodies[0]!.head]));
  });

  it('GET /reports/audit-chain: a tampered entry is named, with why', async () => {
    api = await openTestApi('sqlite');
    for (const reason of ['a', 'b', 'c']) {
      await api.app.inject({ method: 'POST', url: '/control/pause', headers: api.auth, payload: { reason } });
    }
    // Rewrite one entry behind the chain's back, as an intruder with file access would.
    const db = new Database(api.url.slice('sqlite:'.length));
    const { seq } = db.prepare('SELECT min(seq) AS seq FROM events').get() as { seq: number };
    db.prepare('UPDATE events SET body = ? WHERE seq = ?').run(JSON.stringify({ forged: true }), seq);
    db.close();
    const body = (await get('/reports/audit-chain')).json();
    expect(body).toMatchObject({ ok: false, head: null, first_bad: { seq } });
    expect(body.first_bad.reason).toEqual(expect.any(String));
  });

  it('needs the key, like every /control and /reports route', async () => {
    api = await openTestApi('sqlite');
    for (const url of [
      '/control/portfolio',
      '/control/deleverage/preview?symbol=BTCUSDT&reduce_pct=0.5',
      '/reports/audit-chain',
    ]) {
      expect((await get(url, {})).statusCode, url).toBe(401);
      expect((await get(url, { authorization: 'Bearer not-the-key' })).statusCode, url).toBe(401);
    }
  });
});

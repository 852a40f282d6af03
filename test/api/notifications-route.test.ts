/**
 * GET /reports/notifications (issue 35: the console lists notifications): what the notifier would
 * send for the newest audit entries (src/domain/notifications/select.ts, the same selection), newest
 * first, paged by seq, behind the key; bad paging is a 422 that reads nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

const AT = '2026-01-05T12:00:00.000Z';

describe('GET /reports/notifications', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await openTestApi('sqlite');
    await api.store.events.append({
      kind: 'decision',
      at: AT,
      symbol: 'BTCUSDT',
      body: {
        cycle: 1,
        proposals: [{ order: { clientOrderId: 'b-1', symbol: 'BTCUSDT', side: 'BUY' } }],
        submissions: [{ clientOrderId: 'b-1', status: 'submitted', filledQty: 0.1, avgFillPrice: 60_000 }],
      },
    });
    // Nothing to tell: a decision without a fill, a control call that changed nothing.
    await api.store.events.append({ kind: 'decision', at: AT, symbol: null, body: { cycle: 2 } });
    await api.store.events.append({
      kind: 'control',
      at: AT,
      body: { event: 'control.pause', outcome: 'unchanged', actor: 'k', reason: 'again' },
    });
    await api.store.events.append({
      kind: 'control',
      at: AT,
      body: { event: 'control.kill', outcome: 'changed', actor: 'key-1', reason: 'runaway strategy' },
    });
  });
  afterEach(async () => api?.close());

  const get = (url: string, headers: Record<string, string> = api.auth) =>
    api.app.inject({ method: 'GET', url, headers });

  it('lists what the notifier would send, newest first, paged by seq', async () => {
    const res = await get('/reports/notifications');
    expect(res.statusCode).toBe(200);
    const list = res.json() as { seq: number; kind: string; title: string; text: string; symbol: string | null }[];
    expect(list.map((n) => [n.seq, n.kind, n.symbol])).toEqual([
      [4, 'kill', null],
      [1, 'fill', 'BTCUSDT'],
    ]);
    expect(list[0]?.text).toContain('runaway strategy');
    expect(list[1]?.text).toBe('b-1 filled 0.1');
    // `before` pages on the entries' seq; `limit` counts entries read, not notifications.
    expect(((await get('/reports/notifications?before=4')).json() as { seq: number }[]).map((n) => n.seq)).toEqual([1]);
    expect(((await get('/reports/notifications?limit=2')).json() as { seq: number }[]).map((n) => n.seq)).toEqual([4]);
  });

  it('needs the key, and refuses bad paging with a 422', async () => {
    expect((await get('/reports/notifications', {})).statusCode).toBe(401);
    for (const q of ['limit=0', 'limit=1001', 'before=0', 'limit=1e3', 'kind=fill']) {
      expect((await get(`/reports/notifications?${q}`)).statusCode, q).toBe(422);
    }
  });
});

/**
 * GET /reports/fills (issue 35): every fill the audit trail records, newest first — a decision's fills
 * at submission and the `order_filled` entries of fills between cycles — paged by seq, filtered by
 * symbol, behind the key; bad paging is a 422 that reads nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

const AT = '2026-01-05T12:00:00.000Z';

describe('GET /reports/fills', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await openTestApi('sqlite');
    const append = (kind: string, symbol: string | null, body: Record<string, unknown>) =>
      api.store.events.append({ kind, at: AT, symbol, body });
    await append('decision', 'BTCUSDT', {
      cycle: 1,
      proposals: [
        { order: { clientOrderId: 'b-1', symbol: 'BTCUSDT', side: 'BUY' } },
        { order: { clientOrderId: 'e-1', symbol: 'ETHUSDT', side: 'SELL' } },
      ],
      submissions: [
        { clientOrderId: 'b-1', status: 'submitted', filledQty: 0.1, avgFillPrice: 60_000, venueStatus: 'filled' },
        { clientOrderId: 'e-1', status: 'submitted', filledQty: 0, venueStatus: 'open' },
      ],
    });
    await append('decision', null, { cycle: 2 });
    await append('control', null, { event: 'control.pause', outcome: 'changed' });
    await append('order_filled', 'ETHUSDT', {
      client_order_id: 'e-1',
      symbol: 'ETHUSDT',
      side: 'SELL',
      qty: 2,
      price: 3_000,
      fee: -0.6,
      liquidity: 'maker',
      filled_at: '2026-01-05T11:59:30.000Z',
      source: 'resting',
    });
  });
  afterEach(async () => api?.close());

  const get = (url: string, headers: Record<string, string> = api.auth) =>
    api.app.inject({ method: 'GET', url, headers });

  it('lists fills at submission and between cycles, newest first', async () => {
    const res = await get('/reports/fills');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        seq: 4,
        at: AT,
        cycle: null,
        client_order_id: 'e-1',
        symbol: 'ETHUSDT',
        side: 'SELL',
        filled_qty: 2,
        avg_fill_price: 3_000,
        venue_status: null,
        source: 'resting',
        filled_at: '2026-01-05T11:59:30.000Z',
      },
      {
        seq: 1,
        at: AT,
        cycle: 1,
        client_order_id: 'b-1',
        symbol: 'BTCUSDT',
        side: 'BUY',
        filled_qty: 0.1,
        avg_fill_price: 60_000,
        venue_status: 'filled',
      },
    ]);
  });

  it('pages by seq and filters by symbol', async () => {
    const seqs = async (url: string) => ((await get(url)).json() as { seq: number }[]).map((f) => f.seq);
    expect(await seqs('/reports/fills?before=4')).toEqual([1]);
    // `limit` counts entries of the two kinds read: the newest is the order_filled entry.
    expect(await seqs('/reports/fills?limit=1')).toEqual([4]);
    expect(await seqs('/reports/fills?symbol=BTCUSDT')).toEqual([1]);
  });

  it('needs the key, and refuses bad paging with a 422', async () => {
    expect((await get('/reports/fills', {})).statusCode).toBe(401);
    expect((await get('/reports/fills?limit=0')).statusCode).toBe(422);
    expect((await get('/reports/fills?before=x')).statusCode).toBe(422);
  });
});

/** The accountant's CSV rows: one per submitted or refused order of a decision, one per other entry. */
import { describe, expect, it } from 'vitest';
import { csvHeader, csvLine, EXPORT_COLUMNS, exportRows } from '../../src/domain/audit-export-rows.js';

const decision = {
  seq: 7,
  at: '2026-01-01T00:07:00.000Z',
  kind: 'decision',
  symbol: 'BTC-USD',
  hash: 'h7',
  body: {
    cycle: 42,
    account: { nav: 10_100, cash: 5_000, realized_pnl: 12.5 },
    proposals: [
      {
        order: {
          clientOrderId: 'c-1',
          symbol: 'BTC-USD',
          side: 'buy',
          qty: 0.5,
          type: 'limit',
          limitPrice: 100,
          reduceOnly: false,
        },
      },
      { order: null, skipped: { code: 'WITHIN_BAND' } },
    ],
    submissions: [
      { clientOrderId: 'c-1', status: 'submitted', venueStatus: 'filled', filledQty: 0.5, avgFillPrice: 99.5 },
      { clientOrderId: 'c-2', status: 'refused', code: 'RISK_REJECTED', message: 'too big' },
    ],
  },
};

describe('exportRows', () => {
  it('gives a decision one row per submission, joined with the order it proposed', () => {
    const rows = exportRows(decision);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      seq: 7,
      cycle: 42,
      client_order_id: 'c-1',
      side: 'buy',
      order_type: 'limit',
      qty: 0.5,
      limit_price: 100,
      reduce_only: false,
      status: 'submitted',
      venue_status: 'filled',
      filled_qty: 0.5,
      avg_fill_price: 99.5,
      filled_notional: 49.75,
      nav: 10_100,
      realized_pnl: 12.5,
      hash: 'h7',
    });
    expect(rows[1]).toMatchObject({
      client_order_id: 'c-2',
      status: 'refused',
      venue_status: 'RISK_REJECTED',
      side: null,
    });
  });

  it('gives a decision that sent nothing one row with the account, and other entries their body', () => {
    expect(exportRows({ ...decision, body: { ...decision.body, submissions: [] } })).toEqual([
      {
        seq: 7,
        at: decision.at,
        kind: 'decision',
        symbol: 'BTC-USD',
        hash: 'h7',
        cycle: 42,
        nav: 10_100,
        cash: 5_000,
        realized_pnl: 12.5,
      },
    ]);
    const [kill] = exportRows({
      seq: 8,
      at: 'a',
      kind: 'control',
      symbol: null,
      hash: 'h8',
      body: { op: 'kill', reason: 'x' },
    });
    expect(kill?.detail).toBe('{"op":"kill","reason":"x"}');
  });

  it('gives a fill between cycles (order_filled) its columns, with its body (fee, source) in detail', () => {
    const body = {
      client_order_id: 'c-1',
      symbol: 'BTC-USD',
      side: 'SELL',
      qty: 0.25,
      price: 101,
      fee: -0.01,
      liquidity: 'maker',
      filled_at: '2026-01-01T00:08:30.000Z',
      source: 'resting',
    };
    expect(exportRows({ seq: 9, at: 'a', kind: 'order_filled', symbol: 'BTC-USD', hash: 'h9', body })).toEqual([
      {
        seq: 9,
        at: 'a',
        kind: 'order_filled',
        symbol: 'BTC-USD',
        hash: 'h9',
        client_order_id: 'c-1',
        side: 'SELL',
        status: 'filled',
        filled_qty: 0.25,
        avg_fill_price: 101,
        filled_notional: 0.25 * 101,
        detail:
          '{"client_order_id":"c-1","fee":-0.01,"filled_at":"2026-01-01T00:08:30.000Z","liquidity":"maker","price":101,"qty":0.25,"side":"SELL","source":"resting","symbol":"BTC-USD"}',
      },
    ]);
  });

  it('writes RFC 4180 CSV: quoted where needed, no formula a spreadsheet would run', () => {
    expect(csvHeader()).toBe(EXPORT_COLUMNS.join(',') + '\n');
    const line = csvLine({ seq: 1, kind: 'control', symbol: '=HYPERLINK("x")', detail: '{"a":"b,c"}', nav: -3 });
    const fields = line.trimEnd();
    expect(fields.startsWith('1,,control,"\'=HYPERLINK(""x"")"')).toBe(true);
    expect(fields).toContain('"{""a"":""b,c""}"');
    expect(fields).toContain(',-3,');
    expect(line.endsWith('\n')).toBe(true);
  });
});

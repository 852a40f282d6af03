/**
 * The console's recent fills list (console/lib/fills.ts): rows from GET /reports/fills and from the
 * stream's `fill` events (one shape, made by the API from the same audit entries), merged so a fill
 * read both ways is listed once, newest first. The fills of one entry come from
 * src/api/events/entry-fills.ts, tested there.
 */
import { describe, expect, it } from 'vitest';
import { fillsOfEntry } from '../../src/api/events/entry-fills.js';
import { fillOfEvent, mergeFills } from '../../console/lib/fills.js';
import type { FillRow } from '../../console/lib/fills.js';
import type { AuditEvent } from '../../src/ports/event-store.js';

const decision = (seq: number, cycle: number): AuditEvent => ({
  seq,
  at: `2026-01-05T12:00:0${cycle}.000Z`,
  kind: 'decision',
  symbol: 'BTCUSDT',
  prev_hash: 'p',
  hash: 'h',
  body: {
    cycle,
    proposals: [
      { order: { clientOrderId: `b-${cycle}`, symbol: 'BTCUSDT', side: 'BUY' } },
      { order: { clientOrderId: `e-${cycle}`, symbol: 'ETHUSDT', side: 'SELL' } },
      { order: null },
    ],
    submissions: [
      {
        clientOrderId: `b-${cycle}`,
        status: 'submitted',
        filledQty: 0.016,
        avgFillPrice: 61_177.9,
        venueStatus: 'filled',
      },
      // Resting: submitted, nothing filled yet.
      { clientOrderId: `e-${cycle}`, status: 'submitted', filledQty: 0, avgFillPrice: null, venueStatus: 'open' },
    ],
  },
});

/** The rows the console makes of an entry, as the API serves its fills (seq and at added). */
const rows = (entry: AuditEvent): FillRow[] =>
  fillsOfEntry(entry).map((f) => fillOfEvent({ seq: entry.seq, at: entry.at, ...f })!);

describe('recent fills', () => {
  it("reads a decision's fills at submission, with the side and symbol of their order", () => {
    expect(rows(decision(42, 3))).toEqual([
      {
        key: '42:b-3',
        seq: 42,
        at: '2026-01-05T12:00:03.000Z',
        cycle: 3,
        symbol: 'BTCUSDT',
        side: 'BUY',
        qty: 0.016,
        price: 61_177.9,
        client_order_id: 'b-3',
      },
    ]);
    expect(rows({ ...decision(1, 1), body: { cycle: 1 } })).toEqual([]);
    expect(fillOfEvent({ seq: 1, at: 'x' })).toBeNull();
  });

  it('reads a fill between cycles (an order_filled entry) as a row of its own', () => {
    const entry: AuditEvent = {
      ...decision(43, 4),
      kind: 'order_filled',
      symbol: 'ETHUSDT',
      body: { client_order_id: 'e-3', symbol: 'ETHUSDT', side: 'SELL', qty: 2, price: 3_000, source: 'resting' },
    };
    expect(rows(entry)).toEqual([
      {
        key: '43:e-3',
        seq: 43,
        at: entry.at,
        cycle: null,
        symbol: 'ETHUSDT',
        side: 'SELL',
        qty: 2,
        price: 3_000,
        client_order_id: 'e-3',
      },
    ]);
  });

  it('merges the log and the stream: each fill once, newest first, at most max', () => {
    const fromLog = [...rows(decision(40, 1)), ...rows(decision(42, 3))];
    const replayed = fillOfEvent({ seq: 42, at: 'a', client_order_id: 'b-3', filled_qty: 0.016 });
    const merged = mergeFills(mergeFills([], fromLog), [replayed, ...rows(decision(41, 2))]);
    expect(merged.map((f) => f.key)).toEqual(['42:b-3', '41:b-2', '40:b-1']);
    expect(mergeFills(merged, [], 2).map((f) => f.key)).toEqual(['42:b-3', '41:b-2']);
  });
});

/**
 * The console's recent fills list (console/lib/fills.ts): the fills at submission read from a
 * decision entry, the stream's `fill` events, and the two merged so a fill read both ways is listed
 * once, newest first.
 */
import { describe, expect, it } from 'vitest';
import { fillOfEvent, fillsOfDecision, mergeFills } from '../../console/lib/fills.js';
import type { DecisionEntry } from '../../console/lib/types.js';

const entry = (seq: number, cycle: number): DecisionEntry => ({
  seq,
  at: `2026-01-05T12:00:0${cycle}.000Z`,
  symbol: 'BTCUSDT',
  hash: 'h',
  decision: {
    cycle,
    proposals: [
      { order: { clientOrderId: `b-${cycle}`, symbol: 'BTCUSDT', side: 'BUY' } },
      { order: { clientOrderId: `e-${cycle}`, symbol: 'ETHUSDT', side: 'SELL' } },
      { order: null },
    ],
    submissions: [
      { clientOrderId: `b-${cycle}`, status: 'submitted', filledQty: 0.016, avgFillPrice: 61_177.9 },
      // Resting: submitted, nothing filled yet.
      { clientOrderId: `e-${cycle}`, status: 'submitted', filledQty: 0, avgFillPrice: null },
    ],
  },
});

describe('recent fills', () => {
  it('reads the fills at submission of a decision, with the side and symbol of their order', () => {
    expect(fillsOfDecision(entry(42, 3))).toEqual([
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
    expect(fillsOfDecision({ ...entry(1, 1), decision: { cycle: 1 } })).toEqual([]);
  });

  it('reads a stream fill event as the same row, and refuses what is not one', () => {
    const event = {
      seq: 42,
      at: '2026-01-05T12:00:03.000Z',
      cycle: 3,
      client_order_id: 'b-3',
      symbol: 'BTCUSDT',
      side: 'BUY',
      filled_qty: 0.016,
      avg_fill_price: 61_177.9,
      venue_status: 'filled',
    };
    expect(fillOfEvent(event)).toEqual(fillsOfDecision(entry(42, 3))[0]);
    expect(fillOfEvent({ seq: 1, at: 'x' })).toBeNull();
  });

  it('merges the log and the stream: each fill once, newest first, at most max', () => {
    const fromLog = [...fillsOfDecision(entry(40, 1)), ...fillsOfDecision(entry(42, 3))];
    const replayed = fillOfEvent({ seq: 42, at: 'a', client_order_id: 'b-3', filled_qty: 0.016 });
    const merged = mergeFills(mergeFills([], fromLog), [replayed, ...fillsOfDecision(entry(41, 2))]);
    expect(merged.map((f) => f.key)).toEqual(['42:b-3', '41:b-2', '40:b-1']);
    expect(mergeFills(merged, [], 2).map((f) => f.key)).toEqual(['42:b-3', '41:b-2']);
  });
});

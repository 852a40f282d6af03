/**
 * The stream's `fill` events (GET /control/events) cover every fill in the audit trail: those at
 * submission (a decision's, `42.1`, `42.2`) and those between cycles (an `order_filled` entry of its
 * own, issue 35: a resting order, an exchange stop, a fill found by a cancel), so the console's fills
 * and trades are the audit trail's.
 */
import { describe, expect, it } from 'vitest';
import { auditMessages, formatId } from '../../src/api/events/stream-events.js';
import type { AuditEvent } from '../../src/ports/event-store.js';

const entry = (seq: number, kind: string, body: Record<string, unknown>, symbol: string | null): AuditEvent => ({
  seq,
  at: '2026-11-28T07:00:00.000Z',
  kind,
  symbol,
  body,
  prev_hash: 'p'.repeat(64),
  hash: 'h'.repeat(64),
});

describe('stream fill events', () => {
  it('an order_filled entry is one fill event under the entry seq', () => {
    const [message, ...rest] = auditMessages(
      entry(
        42,
        'order_filled',
        {
          client_order_id: 'c-7',
          symbol: 'ETHUSDT',
          side: 'BUY',
          qty: 1.5,
          price: 3_000,
          fee: -0.45,
          liquidity: 'maker',
          filled_at: '2026-11-28T06:59:30.000Z',
          source: 'resting',
        },
        'ETHUSDT',
      ),
    );
    expect(rest).toEqual([]);
    expect(message!.event).toBe('fill');
    expect(formatId(message!.position!)).toBe('42');
    expect(JSON.parse(message!.data)).toEqual({
      seq: 42,
      at: '2026-11-28T07:00:00.000Z',
      cycle: null,
      client_order_id: 'c-7',
      symbol: 'ETHUSDT',
      side: 'BUY',
      filled_qty: 1.5,
      avg_fill_price: 3_000,
      venue_status: null,
      source: 'resting',
      filled_at: '2026-11-28T06:59:30.000Z',
    });
  });
});

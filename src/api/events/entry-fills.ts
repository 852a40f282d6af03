/**
 * The fills an audit entry records, in one shape for the event stream's `fill` events and for
 * GET /reports/fills: a decision's fills at submission (one per submission that filled, in order),
 * or an `order_filled` entry's one fill between cycles (src/domain/fill-entry.ts). Pure.
 */
import type { AuditEvent } from '../../ports/event-store.js';

export interface EntryFill {
  /** The decision's cycle; null for a fill between cycles. */
  cycle: number | null;
  client_order_id: string | null;
  symbol: string | null;
  side: string | null;
  /** At submission: what had filled when the venue answered; between cycles: this fill's quantity. */
  filled_qty: number;
  avg_fill_price: number | null;
  /** The order's status when the venue answered a submission; null between cycles. */
  venue_status: string | null;
  /** Between cycles only: `resting`, `exchange_stop` or `cancel`, and when the venue filled it. */
  source?: string | null;
  filled_at?: string | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const records = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];

export function fillsOfEntry(entry: AuditEvent): EntryFill[] {
  const b = entry.body;
  if (entry.kind === 'order_filled') {
    const qty = num(b.qty);
    if (qty === null || qty <= 0) return [];
    return [
      {
        cycle: null,
        client_order_id: str(b.client_order_id),
        symbol: str(b.symbol) ?? entry.symbol,
        side: str(b.side),
        filled_qty: qty,
        avg_fill_price: num(b.price),
        venue_status: null,
        source: str(b.source),
        filled_at: str(b.filled_at),
      },
    ];
  }
  if (entry.kind !== 'decision') return [];
  const ordered = new Map<string, Record<string, unknown>>();
  for (const p of records(b.proposals)) {
    const order = p.order as Record<string, unknown> | null | undefined;
    if (order && typeof order.clientOrderId === 'string') ordered.set(order.clientOrderId, order);
  }
  const out: EntryFill[] = [];
  for (const s of records(b.submissions)) {
    const qty = num(s.filledQty);
    if (qty === null || qty <= 0) continue;
    const order = ordered.get(str(s.clientOrderId) ?? '');
    out.push({
      cycle: num(b.cycle),
      client_order_id: str(s.clientOrderId),
      symbol: str(order?.symbol) ?? entry.symbol,
      side: str(order?.side),
      filled_qty: qty,
      avg_fill_price: num(s.avgFillPrice),
      venue_status: str(s.venueStatus),
    });
  }
  return out;
}

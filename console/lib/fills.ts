/**
 * The recent fills list, from what the API already serves: a decision entry's submissions that
 * filled (GET /reports/decisions, read at sign-in) and the stream's `fill` events (the same fills,
 * derived by the API from the same entries). Both name a fill by its decision's seq and its
 * client order id, so a fill read both ways (a reconnect's replay) is listed once. Fills of resting
 * orders that fill in a later cycle are not in the audit trail (they move the position; see the
 * Account panel). Pure, tested without a browser.
 */
import type { DecisionEntry } from './types.js';

export interface FillRow {
  /** `${decision seq}:${client order id}`: the same fill from the log and from the stream. */
  key: string;
  seq: number;
  at: string;
  cycle: number | null;
  symbol: string | null;
  side: string | null;
  qty: number;
  price: number | null;
  client_order_id: string | null;
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The fills at submission of one decision, in submission order. */
export function fillsOfDecision(entry: DecisionEntry): FillRow[] {
  const d = entry.decision;
  const orders = new Map<string, { symbol?: string; side?: string }>();
  for (const p of d.proposals ?? []) if (p.order?.clientOrderId) orders.set(p.order.clientOrderId, p.order);
  const rows: FillRow[] = [];
  for (const s of d.submissions ?? []) {
    if (!isNum(s.filledQty) || s.filledQty <= 0) continue;
    const id = str(s.clientOrderId);
    const order = orders.get(id ?? '');
    rows.push({
      key: `${entry.seq}:${id ?? rows.length}`,
      seq: entry.seq,
      at: entry.at,
      cycle: isNum(d.cycle) ? d.cycle : null,
      symbol: str(order?.symbol) ?? entry.symbol,
      side: str(order?.side),
      qty: s.filledQty,
      price: isNum(s.avgFillPrice) ? s.avgFillPrice : null,
      client_order_id: id,
    });
  }
  return rows;
}

/** A stream `fill` event's data as a row; null when it is not one. */
export function fillOfEvent(data: Record<string, unknown>): FillRow | null {
  if (!isNum(data.seq) || !isNum(data.filled_qty) || typeof data.at !== 'string') return null;
  const id = str(data.client_order_id);
  return {
    key: `${data.seq}:${id ?? 0}`,
    seq: data.seq,
    at: data.at,
    cycle: isNum(data.cycle) ? data.cycle : null,
    symbol: str(data.symbol),
    side: str(data.side),
    qty: data.filled_qty,
    price: isNum(data.avg_fill_price) ? data.avg_fill_price : null,
    client_order_id: id,
  };
}

/** Newest first (by decision seq, then order within it), each fill once, at most `max`. */
export function mergeFills(list: readonly FillRow[], more: readonly (FillRow | null)[], max = 50): FillRow[] {
  const byKey = new Map<string, FillRow>();
  for (const f of list) byKey.set(f.key, f);
  for (const f of more) if (f) byKey.set(f.key, f);
  const order = [...byKey.values()];
  const position = new Map(order.map((f, i) => [f.key, i]));
  order.sort((a, b) => b.seq - a.seq || position.get(b.key)! - position.get(a.key)!);
  return order.slice(0, max);
}

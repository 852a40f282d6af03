/**
 * The recent fills list, from what the API already serves: GET /reports/fills (read at sign-in) and
 * the stream's `fill` events, both made by the API from the same audit entries
 * (src/api/events/entry-fills.ts) in the same shape: a decision's fills at submission and the
 * `order_filled` entries of fills between cycles (a resting order, an exchange stop). Both name a
 * fill by its entry's seq and its client order id, so a fill read both ways (a reconnect's replay)
 * is listed once. Pure, tested without a browser.
 */

export interface FillRow {
  /** `${entry seq}:${client order id}`: the same fill from the log and from the stream. */
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

/** A stream `fill` event's data, or an element of GET /reports/fills, as a row; null when it is not one. */
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

/**
 * The rows `tcs audit export --format csv` writes for an accountant (issue 35): every audit entry is
 * at least one row; a cycle's decision is one row per order it submitted or refused (joined with
 * the order it proposed: side, type, quantity, limit), or one row with the account's figures when
 * it sent nothing. Entries other than decisions carry their body as JSON in `detail` (they are
 * small: controls, kills, commands); a decision's body is summarised by the columns instead. A fill
 * between cycles (`order_filled`: a resting order, an exchange stop) is one row with the fill's
 * columns, its fee in `detail`. A decision's fills at submission carry no fee (the exchange's
 * statement has them), so there is no fee column.
 */
import { canonicalJson } from './canonical-json.js';

export const EXPORT_COLUMNS = [
  'seq',
  'at',
  'kind',
  'symbol',
  'cycle',
  'client_order_id',
  'side',
  'order_type',
  'qty',
  'limit_price',
  'reduce_only',
  'status',
  'venue_status',
  'filled_qty',
  'avg_fill_price',
  'filled_notional',
  'nav',
  'cash',
  'realized_pnl',
  'detail',
  'hash',
] as const;

export type ExportColumn = (typeof EXPORT_COLUMNS)[number];
export type ExportRow = Partial<Record<ExportColumn, string | number | boolean | null>>;

/** What an entry must have to be exported (an AuditEvent has it). */
export interface ExportedEntry {
  seq: number;
  at: string;
  kind: string;
  symbol: string | null;
  body: Record<string, unknown>;
  hash: string;
}

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(record) : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export function exportRows(entry: ExportedEntry): ExportRow[] {
  const base: ExportRow = { seq: entry.seq, at: entry.at, kind: entry.kind, symbol: entry.symbol, hash: entry.hash };
  if (entry.kind === 'order_filled') return [fillBetweenCycles(base, entry.body)];
  if (entry.kind !== 'decision') return [{ ...base, detail: canonicalJson(entry.body) }];
  const b = entry.body;
  const account = record(b.account);
  const figures: ExportRow = {
    cycle: num(b.cycle),
    nav: num(account.nav),
    cash: num(account.cash),
    realized_pnl: num(account.realized_pnl),
  };
  const orders = new Map<string, Record<string, unknown>>();
  for (const p of list(b.proposals)) {
    const order = record(p.order);
    const id = text(order.clientOrderId);
    if (id !== null) orders.set(id, order);
  }
  const submissions = list(b.submissions);
  if (submissions.length === 0) return [{ ...base, ...figures }];
  return submissions.map((s) => {
    const id = text(s.clientOrderId);
    const order = (id !== null ? orders.get(id) : undefined) ?? {};
    const filled = num(s.filledQty);
    const price = num(s.avgFillPrice);
    return {
      ...base,
      symbol: text(order.symbol) ?? entry.symbol,
      ...figures,
      client_order_id: id,
      side: text(order.side),
      order_type: text(order.type),
      qty: num(order.qty),
      limit_price: num(order.limitPrice),
      reduce_only: typeof order.reduceOnly === 'boolean' ? order.reduceOnly : null,
      status: text(s.status),
      venue_status: text(s.venueStatus) ?? text(s.code),
      filled_qty: filled,
      avg_fill_price: price,
      filled_notional: filled !== null && price !== null ? filled * price : null,
    };
  });
}

/** A fill between cycles (src/domain/fill-entry.ts): the fill's columns, its fee and source in `detail`. */
function fillBetweenCycles(base: ExportRow, b: Record<string, unknown>): ExportRow {
  const filled = num(b.qty);
  const price = num(b.price);
  return {
    ...base,
    client_order_id: text(b.client_order_id),
    side: text(b.side),
    status: 'filled',
    filled_qty: filled,
    avg_fill_price: price,
    filled_notional: filled !== null && price !== null ? filled * price : null,
    detail: canonicalJson(b),
  };
}

/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. Text a spreadsheet
 * would run as a formula (=, +, -, @ first) is led by a quote mark; numbers are written as they are.
 */
function field(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const s = typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export const csvHeader = (): string => EXPORT_COLUMNS.join(',') + '\n';

export const csvLine = (row: ExportRow): string => EXPORT_COLUMNS.map((c) => field(row[c])).join(',') + '\n';

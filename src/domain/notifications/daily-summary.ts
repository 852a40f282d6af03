/**
 * The daily summary, pure: which UTC day is due at a given time (NOTIFY_DAILY_AT, `HH:MM` UTC: at
 * that time on day D the summary of day D-1 is due), and the summary itself made from that day's
 * audit entries (the trail is the one source: fills and fees from the decisions' submissions,
 * realised PnL and NAV from their account figures, halts and kills from their own entries). Its id
 * is the day's, so it is never queued twice for one day.
 */
import type { AuditEntryFields, Notification } from './select.js';

const DAY_MS = 86_400_000;

/** `HH:MM` → minutes after UTC midnight; `off` → null. Throws on anything else. */
export function parseDailyAt(text: string): number | null {
  if (text === 'off') return null;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (!m) throw new Error(`NOTIFY_DAILY_AT must be HH:MM (UTC) or off, not "${text}"`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** The latest UTC day (`YYYY-MM-DD`) whose summary is due at `nowMs`. */
export function dueSummaryDay(nowMs: number, atMinutes: number): string {
  const midnight = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const back = nowMs >= midnight + atMinutes * 60_000 ? 1 : 2;
  return new Date(midnight - back * DAY_MS).toISOString().slice(0, 10);
}

/** [start, end) of a UTC day as ISO strings. */
export function dayRange(day: string): [string, string] {
  const start = Date.parse(`${day}T00:00:00.000Z`);
  return [new Date(start).toISOString(), new Date(start + DAY_MS).toISOString()];
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const account = (e: AuditEntryFields) => (e.body.account ?? {}) as Record<string, unknown>;

/**
 * The summary of `day` from its entries (any order) and the last decision before it (null: none),
 * which gives the realised PnL the day starts from.
 */
export function dailySummary(
  day: string,
  entries: readonly AuditEntryFields[],
  before: AuditEntryFields | null,
  at: string,
): Notification {
  const sorted = [...entries].sort((a, b) => a.seq - b.seq);
  const decisions = sorted.filter((e) => e.kind === 'decision' && num(account(e).nav) !== null);
  let fills = 0;
  let fees: number | null = null;
  for (const e of sorted.filter((x) => x.kind === 'decision')) {
    const subs = Array.isArray(e.body.submissions) ? (e.body.submissions as Record<string, unknown>[]) : [];
    for (const s of subs) {
      if (s?.status !== 'submitted' || !((num(s.filledQty) ?? 0) > 0)) continue;
      fills += 1;
      const fee = num(s.fee);
      if (fee !== null) fees = (fees ?? 0) + fee;
    }
  }
  const first = decisions[0];
  const last = decisions[decisions.length - 1];
  const startPnl = num(before ? account(before).realized_pnl : first ? account(first).realized_pnl : null);
  const endPnl = num(last ? account(last).realized_pnl : null);
  const realised = startPnl !== null && endPnl !== null ? endPnl - startPnl : null;
  const navStart = num(before ? account(before).nav : first ? account(first).nav : null);
  const navEnd = num(last ? account(last).nav : null);
  const halts = sorted.filter((e) => e.kind === 'trading_halt_started' || e.kind === 'trading_halt').length;
  const kills = sorted.filter(
    (e) => e.kind === 'control' && e.body.event === 'control.kill' && e.body.outcome === 'changed',
  ).length;
  const f = (v: number | null) => (v === null ? 'unknown' : String(Math.round(v * 100) / 100));
  return {
    id: `daily:${day}`,
    seq: sorted[sorted.length - 1]?.seq ?? before?.seq ?? 0,
    at,
    kind: 'daily_summary',
    symbol: null,
    title: `Daily summary ${day} (UTC)`,
    text: `fills ${fills}, realised PnL ${f(realised)}, fees ${f(fees)}, NAV ${f(navStart)} -> ${f(navEnd)}, halt entries ${halts}, kills ${kills}`,
    data: {
      day,
      fills,
      realized_pnl: realised,
      fees,
      nav_start: navStart,
      nav_end: navEnd,
      halt_entries: halts,
      kills,
      decisions: decisions.length,
    },
  };
}

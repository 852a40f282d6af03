/**
 * What GET /control/events sends, as pure functions: which audit entries become which stream events
 * (with their summaries), how a message is framed as Server-Sent Events, and what a Last-Event-ID
 * means. Kept free of I/O so the hub (event-hub.ts) and the replay (sse-client.ts) frame every
 * message the same way.
 *
 * Ids: an audit-backed message carries the entry's seq (`42`); the fills of a decision follow it as
 * `42.1`, `42.2`, … Messages that are not in the audit trail (heartbeat, health, snapshot) carry the
 * id of the last audit-backed message the client was sent (its position), so resuming from any id
 * replays exactly the audit entries after that position. They are not replayed themselves: a client
 * that (re)connects gets the current heartbeat and health at once in the `snapshot` event.
 */
import type { AuditEvent } from '../../ports/event-store.js';
import { fillsOfEntry } from './entry-fills.js';

/** A stream position: the audit seq, and which of that entry's sub-messages (0 = the entry itself). */
export interface StreamPosition {
  seq: number;
  sub: number;
}

export interface StreamMessage {
  /** Audit-backed messages have a position; the others are stamped with the client's when sent. */
  position: StreamPosition | null;
  event: string;
  /** Serialised once, shared by every client. */
  data: string;
}

export function formatId(position: StreamPosition): string {
  return position.sub === 0 ? String(position.seq) : `${position.seq}.${position.sub}`;
}

/** Parses a Last-Event-ID header; null when it is not an id this stream issued. */
export function parseLastEventId(value: string): StreamPosition | null {
  const match = /^(\d{1,15})(?:\.(\d{1,6}))?$/.exec(value.trim());
  if (!match) return null;
  return { seq: Number(match[1]), sub: match[2] === undefined ? 0 : Number(match[2]) };
}

export function isAfter(a: StreamPosition, b: StreamPosition): boolean {
  return a.seq > b.seq || (a.seq === b.seq && a.sub > b.sub);
}

/** One SSE frame. `data` is single-line JSON, so one `data:` line suffices. */
export function frame(message: StreamMessage, id: StreamPosition): string {
  return `id: ${formatId(id)}\nevent: ${message.event}\ndata: ${message.data}\n\n`;
}

export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';

export function liveMessage(event: string, data: unknown): StreamMessage {
  return { position: null, event, data: JSON.stringify(data) };
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const records = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];

/** The stream messages of one audit entry, in order. */
export function auditMessages(entry: AuditEvent): StreamMessage[] {
  const at = (sub: number, event: string, data: Record<string, unknown>): StreamMessage => ({
    position: { seq: entry.seq, sub },
    event,
    data: JSON.stringify({ seq: entry.seq, at: entry.at, ...data }),
  });
  const b = entry.body;
  if ((entry.kind === 'control' && b.outcome === 'changed') || entry.kind === 'kill_reset') {
    const event = entry.kind === 'kill_reset' ? 'control.reset' : str(b.event);
    return [
      at(0, 'control', {
        state: str(b.to),
        epoch: num(b.epoch),
        reason: str(b.reason),
        changed_at: entry.at,
        from: str(b.from),
        event,
        actor: str(b.actor),
      }),
    ];
  }
  if (entry.kind === 'decision') return decisionMessages(entry, at);
  if (entry.kind === 'order_filled') {
    // A fill between cycles (a resting order, an exchange stop, one found by a cancel): its own entry.
    return fillsOfEntry(entry).map((fill) => at(0, 'fill', { ...fill }));
  }
  if (entry.kind === 'command_executed') {
    const result = typeof b.result === 'object' && b.result !== null ? (b.result as Record<string, unknown>) : {};
    return [
      at(0, 'command', {
        command_id: str(b.command_id),
        type: str(b.type),
        symbol: entry.symbol,
        status: str(result.status),
        result,
      }),
    ];
  }
  return [at(0, 'audit', { kind: entry.kind, symbol: entry.symbol })];
}

function decisionMessages(
  entry: AuditEvent,
  at: (sub: number, event: string, data: Record<string, unknown>) => StreamMessage,
): StreamMessage[] {
  const b = entry.body;
  const submissions = records(b.submissions);
  const orders = records(b.proposals).filter((p) => p.order !== null && p.order !== undefined).length;
  const out = [
    at(0, 'decision', {
      cycle: num(b.cycle),
      epoch: num(b.epoch),
      symbol: entry.symbol,
      outcome: str(b.outcome),
      orders,
      submitted: submissions.filter((s) => s.status === 'submitted').length,
    }),
  ];
  // Fills at submission (a taker order filled at once) are in the decision; later fills of resting
  // orders have `order_filled` entries of their own (above).
  for (const fill of fillsOfEntry(entry)) out.push(at(out.length, 'fill', { ...fill }));
  return out;
}

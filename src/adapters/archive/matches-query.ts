/**
 * Whether an archived entry passes an EventQuery's filters (kind, symbol, since inclusive, until
 * exclusive; ISO strings compared as the stores compare them), so an archive pages with the same
 * meaning as the hot store it continues. `before` and `limit` are the caller's walk.
 */
import type { AuditEvent, EventQuery } from '../../ports/event-store.js';

export function matchesQuery(entry: AuditEvent, query: EventQuery): boolean {
  if (query.kind !== undefined && entry.kind !== query.kind) return false;
  if (query.symbol !== undefined && entry.symbol !== query.symbol) return false;
  if (query.since !== undefined && entry.at < query.since) return false;
  if (query.until !== undefined && entry.at >= query.until) return false;
  return true;
}

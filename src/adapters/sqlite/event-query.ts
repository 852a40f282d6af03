/**
 * Translates an EventQuery into one indexed SELECT. Every shape is served newest-first straight from
 * an index ending in seq (the primary key, (kind, seq), (kind, symbol, seq) or (symbol, seq)), so a
 * page costs `limit` rows however long the trail grows; `at` bounds are filtered along the way.
 */
import type { EventQuery } from '../../ports/event-store.js';

export const MAX_QUERY_LIMIT = 1000;

export interface BuiltQuery {
  /** Identifies the SQL text, for caching prepared statements. */
  key: string;
  sql: string;
  params: Array<string | number>;
}

export function buildEventQuery(query: EventQuery): BuiltQuery {
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_QUERY_LIMIT) {
    throw new RangeError(`event query limit must be an integer from 1 to ${MAX_QUERY_LIMIT}, got ${query.limit}`);
  }
  const where: string[] = [];
  const params: Array<string | number> = [];
  const add = (clause: string, value: string | number | undefined): void => {
    if (value === undefined) return;
    where.push(clause);
    params.push(value);
  };
  add('kind = ?', query.kind);
  add('symbol = ?', query.symbol);
  add('seq < ?', query.before);
  add('at >= ?', query.since);
  add('at < ?', query.until);
  params.push(query.limit);
  const filter = where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`;
  const sql = `SELECT seq, at, kind, symbol, body, prev_hash, hash FROM events${filter} ORDER BY seq DESC LIMIT ?`;
  return { key: where.join('|'), sql, params };
}

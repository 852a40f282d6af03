/**
 * The audit trail's hash chain: every entry's hash is sha256(prev_hash + canonical entry), so any
 * edit, deletion or reordering breaks every later link. Shared by all event store adapters.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import { MAX_RAISE_MS } from './clock-skew.js';

export const GENESIS_HASH = '0'.repeat(64);

/** The fields an entry's hash covers (everything but the hashes themselves). */
export interface ChainedFields {
  seq: number;
  at: string;
  kind: string;
  symbol: string | null;
  body: Record<string, unknown>;
}

export function chainHash(prevHash: string, fields: ChainedFields): string {
  const canonical = canonicalJson({
    seq: fields.seq,
    at: fields.at,
    kind: fields.kind,
    symbol: fields.symbol,
    body: fields.body,
  });
  return createHash('sha256').update(prevHash).update(canonical).digest('hex');
}

/**
 * The same hash as chainHash, for a body that is already canonical JSON text (what the stores write):
 * the entry's canonical form is assembled around that text instead of sorting and printing the body a
 * second time, which was an eighth of a simulated cycle. The keys are in canonical (sorted) order.
 */
export function chainHashOfCanonical(prevHash: string, fields: Omit<ChainedFields, 'body'>, bodyText: string): string {
  const canonical =
    `{"at":${JSON.stringify(fields.at)},"body":${bodyText},"kind":${JSON.stringify(fields.kind)},` +
    `"seq":${JSON.stringify(fields.seq)},"symbol":${JSON.stringify(fields.symbol)}}`;
  return createHash('sha256').update(prevHash).update(canonical).digest('hex');
}

/**
 * The `at` an entry is stored with: the caller's, unless that is earlier than the previous entry's,
 * in which case the previous entry's. Two processes stamp their times before they race for the next
 * seq, so the loser's time can be a few ms behind the winner's; raising it (never lowering it) keeps
 * seq order and time order the same, which time-filtered queries and readers of the trail rely on.
 * `previous` is null for the first entry. With `nowMs` (the writer's clock, checked against the
 * store's), a previous `at` more than MAX_RAISE_MS ahead of it is not followed (clock-skew.ts).
 */
export function chainedAt(provided: string, previous: string | null, nowMs?: number): string {
  if (previous === null) return provided;
  const previousMs = Date.parse(previous);
  if (nowMs !== undefined && previousMs - nowMs > MAX_RAISE_MS) return provided;
  return Date.parse(provided) < previousMs ? previous : provided;
}

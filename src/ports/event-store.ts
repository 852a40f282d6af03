/**
 * Event store port: the append-only, hash-chained audit trail (decisions, control calls, command
 * results). Every adapter must pass test/contracts/event-store.contract.ts.
 */

export interface NewAuditEvent {
  /** e.g. `decision`, `control`, `command_executed`, `kill_reset`. */
  kind: string;
  /** ISO 8601 UTC. */
  at: string;
  /** The instrument the entry is about, if any; used by the `symbol` filter. */
  symbol?: string | null;
  body: Record<string, unknown>;
}

export interface AuditEvent {
  /** 1, 2, 3, … with no gaps. */
  seq: number;
  at: string;
  kind: string;
  symbol: string | null;
  body: Record<string, unknown>;
  /** Hash of the entry before (GENESIS_HASH for seq 1). */
  prev_hash: string;
  /** sha256(prev_hash + canonical entry), see src/domain/hash-chain.ts. */
  hash: string;
}

export interface EventQuery {
  kind?: string;
  /** 1–1000. */
  limit: number;
  /** Only entries with seq < before (a paging cursor). */
  before?: number;
  symbol?: string;
  /** Only entries with at >= since (ISO 8601). */
  since?: string;
  /** Only entries with at < until (ISO 8601). */
  until?: string;
}

export type ChainVerification =
  { ok: true; count: number; head: string } | { ok: false; count: number; firstBad: { seq: number; reason: string } };

export interface EventStore {
  /** Appends atomically, assigning the next seq and chaining the hash. Safe across processes. */
  append(event: NewAuditEvent): Promise<AuditEvent>;
  /** Newest first (seq descending). */
  query(query: EventQuery): Promise<AuditEvent[]>;
  /** Re-hashes the whole chain; names the first entry that does not match. */
  verify(): Promise<ChainVerification>;
  /** Number of entries. */
  count(): Promise<number>;
}

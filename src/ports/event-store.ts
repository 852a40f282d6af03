/**
 * Event store port: the append-only, hash-chained audit trail (decisions, control calls, command
 * results). Every adapter must pass test/contracts/event-store.contract.ts.
 */

import type { ChainFloor } from '../domain/chain-floor.js';

export type { ChainFloor } from '../domain/chain-floor.js';

export interface NewAuditEvent {
  /** e.g. `decision`, `control`, `command_executed`, `kill_reset`. */
  kind: string;
  /**
   * ISO 8601 UTC: when the caller says it happened. The store keeps it unless it is earlier than the
   * previous entry's `at`, in which case the entry is stored with the previous entry's (see `append`).
   */
  at: string;
  /** The instrument the entry is about, if any; used by the `symbol` filter. */
  symbol?: string | null;
  body: Record<string, unknown>;
}

export interface AuditEvent {
  /** 1, 2, 3, … with no gaps. */
  seq: number;
  /** As stored: never earlier than the previous entry's, so seq order is time order. */
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
  /**
   * Appends atomically, assigning the next seq, chaining the hash and moving the chain head (seq,
   * hash) in the same step. Safe across processes. `at` is fixed in that step as
   * max(event.at, previous entry's at), so seq order is time order even when two processes stamped
   * their times before racing for the seq; the returned entry carries the stored `at`. A writer
   * whose wall clock is further than AUDIT_CLOCK_SKEW_MS from the store's (Redis `TIME`, the host's
   * for SQLite) is refused with ClockSkewError and nothing is written (src/domain/clock-skew.ts).
   */
  append(event: NewAuditEvent): Promise<AuditEvent>;
  /** Newest first (seq descending). */
  query(query: EventQuery): Promise<AuditEvent[]>;
  /**
   * Re-hashes the whole chain from one consistent snapshot and holds it against the head; names the
   * first bad seq and why: an entry missing (in the middle, or cut from the end), an entry whose
   * hash or link does not match, an entry beyond the head, or a head that does not match the last
   * entry (e.g. the last entry rewritten with a fresh hash).
   */
  verify(): Promise<ChainVerification>;
  /** Number of entries the store holds (after a trim: those above the floor). */
  count(): Promise<number>;
  /**
   * The hot window's floor: the last entry trimmed after it was archived (NO_FLOOR when none was).
   * verify() walks from the entry after it; queries never reach below it.
   */
  floor(): Promise<ChainFloor>;
  /**
   * Deletes every entry up to and including `through.seq` (and its index entries), moving the floor
   * to it in the same atomic steps, oldest first, so a crash leaves a floor that is an entry once
   * stored. Only for entries already archived (the caller's promise, src/application/audit-archiver.ts).
   * Refuses (throws, nothing changed) when the entry at `through.seq` is not the one named (its hash
   * differs) or lies at or beyond the head (the newest entry anchors the chain and is never
   * trimmed). A floor already at or past it is a no-op. Resolves with the number of entries deleted.
   */
  trimThrough(through: ChainFloor): Promise<number>;
}

/**
 * Audit archive port (issue 35): where entries trimmed from the hot store live on, as verifiable
 * chain segments. Entries keep their seq, hash and prev_hash; a segment records its first and last
 * seq and the hashes it links from and to, so the archive and the hot window verify as one chain.
 * Opened read-only (the API process), an adapter creates nothing and refuses to write.
 */
import type { ChainFloor } from '../domain/chain-floor.js';
import type { AuditEvent, EventQuery } from './event-store.js';

export type ArchiveVerification =
  | { ok: true; head: ChainFloor; segments: number; checked: number }
  | { ok: false; firstBad: { seq: number; reason: string } };

export interface AuditArchive {
  /** Where it is (no credentials). */
  readonly description: string;
  /** The last entry archived (NO_FLOOR when empty). */
  head(): Promise<ChainFloor>;
  /**
   * Appends entries `head.seq + 1 …` as one segment, written atomically. Entries already archived
   * are skipped (idempotent: a run resumed after a crash offers them again); the rest must follow on
   * from the head (seq and prev_hash), or nothing is written and it throws.
   */
  write(entries: readonly AuditEvent[]): Promise<void>;
  /** The archived entry's hash at `seq`, or null when the archive does not hold it. */
  hashAt(seq: number): Promise<string | null>;
  /** Entries with from <= seq <= to, oldest first. */
  read(from: number, to: number): Promise<AuditEvent[]>;
  /**
   * Newest first, as EventStore.query (the same filters, `before` exclusive), over the entries with
   * seq <= `through` only (the hot store's floor: above it the store answers, so a page read across
   * both never holds an entry twice). Reads no more of the archive than the page needs.
   */
  query(query: EventQuery, through: number): Promise<AuditEvent[]>;
  /**
   * Walks the archive from seq 1 as one chain and names the first gap or bad entry. `incremental`:
   * segments up to the last one verified before are checked by name only (they are still all there,
   * in sequence); their contents were re-hashed then.
   */
  verify(options?: { incremental?: boolean }): Promise<ArchiveVerification>;
  /** Lets go of what it holds open (a database's connections); a directory holds nothing. */
  close(): Promise<void>;
}

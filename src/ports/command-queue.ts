/**
 * Command queue port: work the API asks the trading process to carry out (cancel-all, deleverage,
 * the kill's cancels). At least once, idempotent by id. Every adapter must pass
 * test/contracts/command-queue.contract.ts.
 */
import type { Command, StoredCommand } from '../domain/commands.js';
import type { AuditEvent, NewAuditEvent } from './event-store.js';

export interface ClaimOptions {
  /** Most commands to hand out. */
  max: number;
  /** A claimed command not completed within this many ms is handed out again. */
  leaseMs: number;
  /** Epoch ms "now" (injected so tests control leases). */
  now: number;
}

export interface CommandQueue {
  /**
   * Idempotent by id: enqueuing an existing id changes nothing and returns duplicate: true. A payload
   * that is not its type's schema is refused (TypeError) and nothing is stored.
   */
  enqueue(command: Command): Promise<{ record: StoredCommand; duplicate: boolean }>;
  /**
   * Pending commands, and claimed ones whose lease expired, oldest first. Each is decoded against its
   * type's schema and version (src/domain/commands.ts); one that does not decode is claimed like any
   * other and handed back as a MalformedCommandRecord, never as a command.
   */
  claim(consumer: string, options: ClaimOptions): Promise<StoredCommand[]>;
  /**
   * Marks done with its result, without an audit entry. Completing a done command is a no-op
   * returning the stored record. The trading process completes through completeWithEntry.
   */
  complete(id: string, result: Record<string, unknown>, at: string): Promise<StoredCommand>;
  /**
   * Marks done with its result AND appends `entry` to the audit trail, chained like any other append,
   * in one atomic step (SQLite: one transaction; Redis: one script): a command is never done without
   * its entry, nor an entry written for a command left open. Completing a done command changes
   * nothing and appends nothing (`entry: null`): its entry was written when it was done.
   */
  completeWithEntry(
    id: string,
    result: Record<string, unknown>,
    at: string,
    entry: NewAuditEvent,
  ): Promise<{ record: StoredCommand; entry: AuditEvent | null }>;
  get(id: string): Promise<StoredCommand | null>;
  /** Ids of every done command (`tcs audit verify` holds them against the trail's entries). */
  completedIds(): Promise<string[]>;
  /** Calls `listener` soon after any process enqueues a command. */
  subscribe(listener: () => void): Promise<() => Promise<void>>;
}

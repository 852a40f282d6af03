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

/**
 * COMMAND_QUEUE_MAX's default: far more than an operator queues by hand between two cycles, and few
 * enough that the trading process works through them within minutes.
 */
export const DEFAULT_COMMAND_QUEUE_MAX = 1_000;

export interface EnqueueOptions {
  /**
   * Refuse (CommandQueueFullError, nothing stored) when this many commands are already open (pending
   * or claimed). The kill's cancels and an id already queued are never refused.
   */
  maxOpen?: number;
}

/** The bound on open commands was reached: nothing was queued; trying again later may work. */
export class CommandQueueFullError extends Error {
  override name = 'CommandQueueFullError';
  readonly code = 'TCS_COMMAND_QUEUE_FULL';
  /** Seconds after which trying again is sensible: the trading process works through commands each cycle. */
  readonly retryAfterS = 5;
  constructor(readonly maxOpen: number) {
    super(`${maxOpen} commands are already waiting for the trading process (COMMAND_QUEUE_MAX)`);
  }
}

export interface CommandQueue {
  /**
   * Idempotent by id: enqueuing an existing id changes nothing and returns duplicate: true. A payload
   * that is not its type's schema is refused (TypeError) and nothing is stored. With `maxOpen`, a new
   * command past the bound is refused (see EnqueueOptions).
   */
  enqueue(command: Command, options?: EnqueueOptions): Promise<{ record: StoredCommand; duplicate: boolean }>;
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

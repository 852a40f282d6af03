/**
 * Command queue port: work the API asks the trading process to carry out (cancel-all, deleverage,
 * the kill's cancels). At least once, idempotent by id. Every adapter must pass
 * test/contracts/command-queue.contract.ts.
 */
import type { Command, CommandRecord } from '../domain/commands.js';

export interface ClaimOptions {
  /** Most commands to hand out. */
  max: number;
  /** A claimed command not completed within this many ms is handed out again. */
  leaseMs: number;
  /** Epoch ms "now" (injected so tests control leases). */
  now: number;
}

export interface CommandQueue {
  /** Idempotent by id: enqueuing an existing id changes nothing and returns duplicate: true. */
  enqueue(command: Command): Promise<{ record: CommandRecord; duplicate: boolean }>;
  /** Pending commands, and claimed ones whose lease expired, oldest first. */
  claim(consumer: string, options: ClaimOptions): Promise<CommandRecord[]>;
  /** Marks done with its result. Completing a done command is a no-op returning the stored record. */
  complete(id: string, result: Record<string, unknown>, at: string): Promise<CommandRecord>;
  get(id: string): Promise<CommandRecord | null>;
  /** Calls `listener` soon after any process enqueues a command. */
  subscribe(listener: () => void): Promise<() => Promise<void>>;
}

/**
 * Completing a command: mark it done in the queue with its result and append `command_executed` to
 * the audit trail in ONE store step (CommandQueue.completeWithEntry), emit the event line, and let
 * the account be published again. Two steps lost entries: a command marked done whose append then met
 * "database is locked" stayed done with no entry, no line and no log (issue 30, finding 4). Now a
 * refused step leaves the command claimed and unrecorded (its lease expires and it is handed out
 * again, at least once, idempotent by id) and says so: an error log line and a `command_unrecorded`
 * event line, which the metrics count. Completing a command
 * that is already done changes nothing in the queue (at-least-once delivery, idempotent by id).
 * A stored command that did not decode is completed the same way with `status: 'rejected'` and the
 * reason, without being executed: the caller who queued it, the audit trail and the log all learn
 * that it will never run, and it is not claimed again every lease.
 */
import type { CommandRecord, MalformedCommandRecord } from '../domain/commands.js';
import { eventLine } from '../domain/event-lines.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { TradingEvents } from '../ports/trading-events.js';

export interface CommandCompletionDeps {
  store: Store;
  clock: Clock;
  events: TradingEvents;
  /** The error log line of a completion the store refused. */
  log(message: string, details: Record<string, unknown>): void;
  /** Publishes the account after anything that may have changed it. */
  accountChanged(): Promise<void>;
  /**
   * The same, not waited for: the next command (a kill's flatten behind its cancels) need not wait
   * for the read, which on a slow exchange is two round trips.
   */
  accountChangedSoon?(): void;
}

export type CompleteCommand = (
  command: CommandRecord,
  result: Record<string, unknown> & { status: string },
) => Promise<void>;

/** The symbol a command is about, for its audit entry (null when it names several or none). */
function commandSymbol(command: CommandRecord): string | null {
  return command.type === 'deleverage' ? command.payload.symbol : null;
}

async function record(
  deps: Pick<CommandCompletionDeps, 'store' | 'clock' | 'events' | 'log'>,
  command: { id: string; type: string },
  symbol: string | null,
  result: Record<string, unknown> & { status: string },
): Promise<void> {
  const at = new Date(deps.clock.now()).toISOString();
  const entry = { kind: 'command_executed', at, symbol, body: { command_id: command.id, type: command.type, result } };
  try {
    await deps.store.commands.completeWithEntry(command.id, result, at, entry);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    deps.log('a command was carried out but the store refused its completion and audit entry; it stays open', {
      command: command.id,
      type: command.type,
      status: result.status,
      err: message,
    });
    deps.events.emit(eventLine.commandUnrecorded(command.id, command.type, message));
    throw err;
  }
  deps.events.emit(eventLine.commandExecuted(command.id, command.type, result.status));
}

export function createCommandCompletion(deps: CommandCompletionDeps): CompleteCommand {
  return async (command, result) => {
    await record(deps, command, commandSymbol(command), result);
    if (deps.accountChangedSoon) deps.accountChangedSoon();
    else await deps.accountChanged();
  };
}

export type RejectCommand = (command: MalformedCommandRecord) => Promise<void>;

export function createCommandRejection(
  deps: Pick<CommandCompletionDeps, 'store' | 'clock' | 'events' | 'log'>,
): RejectCommand {
  return async (command) => {
    deps.log('a stored command is malformed; completed as rejected, not executed', {
      command: command.id,
      type: command.type,
      problem: command.problem,
    });
    await record(deps, command, null, { status: 'rejected', message: command.problem });
  };
}

/**
 * Completing a command: mark it done in the queue with its result, append `command_executed` to the
 * audit trail, emit the event line, and let the account be published again. Completing a command
 * that is already done changes nothing in the queue (at-least-once delivery, idempotent by id).
 */
import type { CommandRecord } from '../domain/commands.js';
import { eventLine } from '../domain/event-lines.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { TradingEvents } from '../ports/trading-events.js';

export interface CommandCompletionDeps {
  store: Store;
  clock: Clock;
  events: TradingEvents;
  /** Publishes the account after anything that may have changed it. */
  accountChanged(): Promise<void>;
}

export type CompleteCommand = (
  command: CommandRecord,
  result: Record<string, unknown> & { status: string },
) => Promise<void>;

export function createCommandCompletion(deps: CommandCompletionDeps): CompleteCommand {
  return async (command, result) => {
    const at = new Date(deps.clock.now()).toISOString();
    await deps.store.commands.complete(command.id, result, at);
    await deps.store.events.append({
      kind: 'command_executed',
      at,
      symbol: typeof command.payload.symbol === 'string' ? command.payload.symbol : null,
      body: { command_id: command.id, type: command.type, result },
    });
    deps.events.emit(eventLine.commandExecuted(command.id, command.type, result.status));
    await deps.accountChanged();
  };
}

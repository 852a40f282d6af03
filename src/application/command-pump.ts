/**
 * Claims queued commands and hands each to the root actor, once while it is in flight. A command
 * whose work ends without completing (a failure) is released, so when its lease expires it is
 * claimed and handed over again: at least once, idempotent by id.
 */
import type { CommandRecord } from '../domain/commands.js';
import type { Clock } from '../ports/clock.js';
import type { CommandQueue } from '../ports/command-queue.js';

const CLAIM_BATCH = 50;
/** A claimed command not completed within this time is handed out again. */
export const COMMAND_LEASE_MS = 30_000;

export interface CommandPump {
  pump(): Promise<void>;
  /** The command's work ended (completed or failed); it may be handed over again. */
  release(commandId: string): void;
}

export function createCommandPump(
  commands: CommandQueue,
  clock: Clock,
  consumer: string,
  deliver: (command: CommandRecord) => void,
): CommandPump {
  const inFlight = new Set<string>();
  return {
    async pump() {
      const claimed = await commands.claim(consumer, { max: CLAIM_BATCH, leaseMs: COMMAND_LEASE_MS, now: clock.now() });
      for (const command of claimed) {
        if (inFlight.has(command.id)) continue;
        inFlight.add(command.id);
        deliver(command);
      }
    },
    release: (commandId) => void inFlight.delete(commandId),
  };
}

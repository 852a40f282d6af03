/**
 * Claims queued commands and hands each to the root actor, once while it is in flight. A command
 * whose work ends without completing (a failure) is released, so when its lease expires it is
 * claimed and handed over again: at least once, idempotent by id. A stored command that did not
 * decode (src/domain/commands.ts) is never handed over: it goes to `reject`, which completes it as
 * rejected, so it is neither executed nor claimed again.
 */
import { isMalformed } from '../domain/commands.js';
import type { CommandRecord, MalformedCommandRecord } from '../domain/commands.js';
import type { Clock } from '../ports/clock.js';
import type { CommandQueue } from '../ports/command-queue.js';

const CLAIM_BATCH = 50;
/** A claimed command not completed within this time is handed out again. */
export const COMMAND_LEASE_MS = 30_000;

export interface CommandPump {
  /** Claims what is queued and hands each command to `deliver` (the root actor). */
  pump(deliver: (command: CommandRecord) => void): Promise<void>;
  /** The command's work ended (completed or failed); it may be handed over again. */
  release(commandId: string): void;
}

export function createCommandPump(
  commands: CommandQueue,
  clock: Clock,
  consumer: string,
  reject: (command: MalformedCommandRecord) => Promise<void>,
): CommandPump {
  const inFlight = new Set<string>();
  return {
    async pump(deliver) {
      const claimed = await commands.claim(consumer, { max: CLAIM_BATCH, leaseMs: COMMAND_LEASE_MS, now: clock.now() });
      const malformed: MalformedCommandRecord[] = [];
      for (const command of claimed) {
        if (inFlight.has(command.id)) continue;
        inFlight.add(command.id);
        if (isMalformed(command)) malformed.push(command);
        else deliver(command);
      }
      // After the good ones are on their way, so a store that fails here delays none of them. A
      // rejection that fails leaves the command claimed: its lease expires and it is rejected then.
      let failure: unknown = null;
      for (const command of malformed) {
        await reject(command)
          .catch((err: unknown) => void (failure ??= err))
          .finally(() => inFlight.delete(command.id));
      }
      if (failure !== null) throw failure;
    },
    release: (commandId) => void inFlight.delete(commandId),
  };
}

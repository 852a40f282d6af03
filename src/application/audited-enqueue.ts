/**
 * Queueing a command whose request was audited first (audit-then-act: no command ever runs
 * unaudited). When the bounded queue refuses it (COMMAND_QUEUE_MAX, CommandQueueFullError), the
 * request's `control_call` entry is already in the trail naming a command id that will never exist,
 * so the refusal is recorded after it (`command_refused`, same id, why) before the caller's 503.
 * Recording the refusal is best effort: if the store fails that too, the 503 still goes out (the
 * caller was told "NOT queued"; the trail then holds only the request).
 */
import type { Command } from '../domain/commands.js';
import type { EnqueueOptions } from '../ports/command-queue.js';
import { CommandQueueFullError } from '../ports/command-queue.js';
import type { Store } from '../ports/store.js';

export async function enqueueAudited(
  store: Pick<Store, 'events' | 'commands'>,
  command: Command,
  options: EnqueueOptions,
): Promise<void> {
  try {
    await store.commands.enqueue(command, options);
  } catch (err) {
    if (err instanceof CommandQueueFullError) {
      await store.events
        .append({
          kind: 'control_call',
          at: command.enqueued_at,
          body: { call: 'command_refused', command_id: command.id, type: command.type, why: err.message },
        })
        .catch(() => undefined);
    }
    throw err;
  }
}

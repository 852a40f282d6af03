/**
 * Pulling the kill switch, for every caller (the API's endpoint and the trading process's drawdown
 * circuit breaker): the store transition to killed, then the durable command that cancels every open
 * order of the whitelist. The command id is derived from the kill's epoch, so repeated presses and
 * retries queue it once; the trading process executes it at least once even if it crashes. A kill
 * that loses races for the record takes priority over other control writers (kill-priority.ts).
 */
import type { ControlActor, ControlApplyResult } from '../domain/control.js';
import { killCancelsId } from '../domain/commands.js';
import { cancelInstructionsFor } from '../domain/instructions.js';
import type { CancelInstruction } from '../domain/instructions.js';
import type { Instrument } from '../domain/market.js';
import { StoreUnavailableError } from '../ports/store-errors.js';
import type { CommandQueue } from '../ports/command-queue.js';
import type { Store } from '../ports/store.js';
import { applyControl } from './control-transition.js';
import type { ControlWriteOptions } from './control-transition.js';
import { killPriority } from './kill-priority.js';

export async function pullKillSwitch(
  store: Store,
  instruments: readonly Instrument[],
  reason: string,
  who: ControlActor,
  options: ControlWriteOptions = { priority: killPriority(store.kv) },
): Promise<{ result: ControlApplyResult; instructions: CancelInstruction[] }> {
  const result = await applyControl(store.control, { type: 'control.kill', reason }, who, options);
  const instructions = cancelInstructionsFor(instruments);
  try {
    await queueKillCancels(store.commands, instruments, result.record.epoch, result.record.reason ?? reason, who);
  } catch (err) {
    if (err instanceof StoreUnavailableError) throw new KillCancelsNotQueuedError(result.record.epoch, err);
    throw err;
  }
  return { result, instructions };
}

/**
 * Queues the cancels of the kill at `epoch` (the kill_cancels command, one per kill: its id is the
 * epoch, so every caller — the API, the breaker, the trading process entering `killed` — queues the
 * same command, and the order manager runs it once: one cancel job, one audit entry).
 */
export async function queueKillCancels(
  commands: CommandQueue,
  instruments: readonly Instrument[],
  epoch: number,
  reason: string,
  who: ControlActor,
): Promise<void> {
  await commands.enqueue({
    id: killCancelsId(epoch),
    type: 'kill_cancels',
    payload: { instructions: cancelInstructionsFor(instruments), reason, actor: who.actor },
    enqueued_at: who.at,
  });
}

/**
 * The kill is in the store but its cancel command is not: the caller must not be told "not
 * recorded". Pressing again queues the same command (its id is the kill's epoch), so it is safe.
 */
export class KillCancelsNotQueuedError extends StoreUnavailableError {
  constructor(epoch: number, cause: StoreUnavailableError) {
    super(`killed at epoch ${epoch}; queueing its cancels failed: ${cause.message}`);
  }
}

/**
 * Pulling the kill switch, for every caller (the API's endpoint and the trading process's drawdown
 * circuit breaker): the store transition to killed, then the durable command that cancels every open
 * order of the whitelist. The command id is derived from the kill's epoch, so repeated presses and
 * retries queue it once; the trading process executes it at least once even if it crashes. A kill
 * that loses races for the record takes priority over other control writers (kill-priority.ts).
 */
import type { ControlActor, ControlApplyResult } from '../domain/control.js';
import { cancelInstructionsFor } from '../domain/instructions.js';
import type { CancelInstruction } from '../domain/instructions.js';
import type { Instrument } from '../domain/market.js';
import { StoreUnavailableError } from '../ports/store-errors.js';
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
    await store.commands.enqueue({
      id: `kill-cancels-epoch-${result.record.epoch}`,
      type: 'kill_cancels',
      payload: { instructions, reason: result.record.reason ?? reason, actor: who.actor },
      enqueued_at: who.at,
    });
  } catch (err) {
    if (err instanceof StoreUnavailableError) throw new KillCancelsNotQueuedError(result.record.epoch, err);
    throw err;
  }
  return { result, instructions };
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

/**
 * The operator's manual restart after a kill, one function for `tcs start --reset-kill` and
 * `tcs trade --reset-kill`: killed → running, audited with the operator and the reason. It is
 * refused while another live trading process holds the store: that process stays killed (the kill is
 * final for its statechart) while the store would say running, so it must be stopped first and the
 * reset done by the process that will trade next.
 */
import { hostname } from 'node:os';
import { resetKill } from '../application/control-transition.js';
import type { Store } from '../ports/store.js';
import { assertNoOtherTradingProcess } from './trading/ownership.js';

export const DEFAULT_RESET_REASON = 'manual restart by operator';

/** Applies the reset; returns the line to tell the operator. */
export async function resetKillAsOperator(store: Store, reason: string | undefined): Promise<string> {
  const before = await store.control.read();
  if (before.state !== 'killed') return `--reset-kill: state is ${before.state}, nothing to reset`;
  await assertNoOtherTradingProcess(store.lease);
  const actor = `operator:${process.env.USER ?? 'unknown'}@${hostname()}`;
  const after = await resetKill(store.control, { actor, at: new Date().toISOString() }, reason ?? DEFAULT_RESET_REASON);
  return `--reset-kill: killed → ${after.state} (epoch ${after.epoch}), recorded in the audit trail`;
}

/**
 * Control store port: the system state as the single source of truth, shared by the API process
 * and the trading process. Every adapter must pass test/contracts/control-store.contract.ts.
 */
import type { ControlActor, ControlApplyResult, ControlEvent, ControlRecord } from '../domain/control.js';

export interface ControlStore {
  /** The current record; the initial one (running, epoch 0) when nothing was ever written. */
  read(): Promise<ControlRecord>;
  /**
   * Offers `event` to the control statechart (machines/control.machine.ts `decideControl`) on the
   * stored state and, in ONE atomic step (Redis: a Lua compare-and-set; SQLite: one IMMEDIATE
   * transaction): when `changed`, writes the new state with epoch + 1; for every outcome, appends a
   * `control` audit event {event, reason, outcome, from, to, epoch, actor} to the event store. After a
   * change, every subscriber (in any process) is notified.
   */
  apply(event: ControlEvent, who: ControlActor): Promise<ControlApplyResult>;
  /**
   * The operator's manual restart after a kill (outside the API): killed → running with epoch + 1 and
   * a `kill_reset` audit event, atomically. Returns the record unchanged when not killed.
   */
  resetKill(who: ControlActor, reason: string): Promise<ControlRecord>;
  /** Calls `listener` with the new record after every change made by any process. */
  subscribe(listener: (record: ControlRecord) => void): Promise<() => Promise<void>>;
}

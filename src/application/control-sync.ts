/**
 * Keeps the root actor on the stored control record: a record newer than the epoch the root has
 * seen is sent to it as the same control event the API applied; stale or repeated records (a
 * notification and a re-read of the same change) are ignored. The root's own context is the memory
 * of what it has seen, so nothing is copied here.
 */
import type { ControlRecord } from '../domain/control.js';
import { controlEventFor } from '../../machines/trading.machine.js';
import type { RootControlEvent } from '../../machines/trading.machine.js';

export interface RootControl {
  /** The highest epoch the root has been sent. */
  epoch(): number;
  send(event: RootControlEvent): void;
}

export function createControlSync(root: RootControl): (record: ControlRecord) => void {
  return (record) => {
    if (record.epoch <= root.epoch()) return;
    root.send(controlEventFor(record));
  };
}

/**
 * What the trading process publishes of its machines (MACHINES_KEY): the ids of the active state
 * nodes of each actor's current snapshot, ancestors and root included, in the machine's document
 * order. Pure: the runtime hands it snapshots; no actor is touched here.
 */
import type { AnyMachineSnapshot } from 'xstate';
import type { MachinesDocument } from '../domain/runtime-documents.js';

/**
 * The active StateNode ids of a snapshot (`trading`, `trading.control`, `trading.control.running`,
 * …), in document order. `_nodes` is the snapshot's own list of active nodes (XState's typed, if underscored, field):
 * reading it is cheaper and surer than re-deriving the configuration from `value`.
 */
export function activeStateIds(snapshot: AnyMachineSnapshot | undefined): string[] {
  if (!snapshot) return [];
  // Document order (a parallel node's regions each with their descendants), whatever order XState keeps.
  return [...snapshot._nodes].sort((a, b) => a.order - b.order).map((node) => node.id);
}

export interface MachineSnapshots {
  trading: AnyMachineSnapshot;
  /** The running cycle's snapshot and number; undefined when no cycle actor exists. */
  cycle?: { number: number; snapshot: AnyMachineSnapshot } | undefined;
  orderManager: AnyMachineSnapshot | undefined;
}

export function machinesDocument(now: number, snapshots: MachineSnapshots): MachinesDocument {
  return {
    ts: now,
    cycle: snapshots.cycle?.number ?? null,
    active: {
      trading: activeStateIds(snapshots.trading),
      cycle: activeStateIds(snapshots.cycle?.snapshot),
      'order-manager': activeStateIds(snapshots.orderManager),
    },
  };
}

/**
 * The statecharts as plain trees, built from the machine DEFINITIONS (machines/), for the console's
 * live view: the API serves them at GET /control/machines and the trading process publishes which of
 * their nodes are active (MACHINES_KEY). Ids are the machines' own StateNode ids, the same strings
 * the published active states hold, so a reader matches them without knowing either side's code.
 * Built once, on first use: the definitions never change while a process runs.
 */
import type { AnyStateMachine, StateNode } from 'xstate';
import { cycleMachine } from '../../machines/cycle.machine.js';
import { orderManagerMachine } from '../../machines/order-manager.machine.js';
import { tradingMachine } from '../../machines/trading.machine.js';
import type { MachineId } from '../domain/runtime-documents.js';

export interface StateTreeNode {
  id: string;
  key: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** In the definition's order. */
  children: StateTreeNode[];
}

export interface MachineView {
  id: MachineId;
  label: string;
  root: StateTreeNode;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any machine's nodes; only id, key, type and states are read
type AnyStateNode = StateNode<any, any>;

function toTree(node: AnyStateNode): StateTreeNode {
  return {
    id: node.id,
    key: node.key,
    type: node.type,
    children: Object.values(node.states).map((child) => toTree(child as AnyStateNode)),
  };
}

/** The tree of one machine's state nodes, from its root. */
export function stateTree(machine: AnyStateMachine): StateTreeNode {
  return toTree(machine.root as AnyStateNode);
}

let views: readonly MachineView[] | null = null;

/** The three machines the console draws, in the order it shows them. */
export function machineViews(): readonly MachineView[] {
  views ??= [
    { id: 'trading', label: 'Trading process (root)', root: stateTree(tradingMachine) },
    { id: 'cycle', label: 'Current cycle', root: stateTree(cycleMachine) },
    { id: 'order-manager', label: 'Order manager', root: stateTree(orderManagerMachine) },
  ];
  return views;
}

/** Every state node id of each machine, to judge a published document against. */
export function knownStateIds(): Record<MachineId, Set<string>> {
  const ids = (node: StateTreeNode, into: Set<string>): Set<string> => {
    into.add(node.id);
    for (const child of node.children) ids(child, into);
    return into;
  };
  const out = {} as Record<MachineId, Set<string>>;
  for (const view of machineViews()) out[view.id] = ids(view.root, new Set());
  return out;
}

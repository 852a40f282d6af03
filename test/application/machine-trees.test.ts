/**
 * The trees GET /control/machines serves are the machine definitions as they are: every node's id
 * is the machine's own StateNode id (what the published active states hold), types are XState's,
 * children keep definition order, and the order manager's two regions are parallel.
 */
import { describe, expect, it } from 'vitest';
import { machineViews, stateTree } from '../../src/application/machine-trees.js';
import type { StateTreeNode } from '../../src/application/machine-trees.js';
import { orderManagerMachine } from '../../machines/order-manager.machine.js';

const find = (node: StateTreeNode, id: string): StateTreeNode | undefined =>
  node.id === id ? node : node.children.map((c) => find(c, id)).find(Boolean);
const all = (node: StateTreeNode): StateTreeNode[] => [node, ...node.children.flatMap(all)];

describe('the machine trees', () => {
  const [trading, cycle, oms] = machineViews();

  it('names the three machines, in the order the console shows them', () => {
    expect(machineViews().map((v) => v.id)).toEqual(['trading', 'cycle', 'order-manager']);
    expect(machineViews().every((v) => v.label.length > 0)).toBe(true);
    // Built once: the same objects on every call.
    expect(machineViews()).toBe(machineViews());
  });

  it('the root: control region with running (cycling, waiting, halted) ⇄ paused → killed, and final stopped', () => {
    const root = trading!.root;
    expect(root).toMatchObject({ id: 'trading', key: 'trading', type: 'compound' });
    expect(root.children.map((c) => c.key)).toEqual(['starting', 'control', 'stopped']);
    const running = find(root, 'trading.control.running')!;
    expect(running.type).toBe('compound');
    expect(running.children.map((c) => c.id)).toEqual([
      'trading.control.running.entering',
      'trading.control.running.halted',
      'trading.control.running.cycling',
      'trading.control.running.waiting',
    ]);
    expect(find(root, 'trading.control.paused')!.type).toBe('atomic');
    expect(find(root, 'trading.control.killed')!.type).toBe('final');
    expect(find(root, 'trading.stopped')!.type).toBe('final');
  });

  it('the cycle: its decision steps are states inside deciding', () => {
    const deciding = find(cycle!.root, 'cycle.deciding')!;
    expect(deciding.type).toBe('compound');
    expect(deciding.children.map((c) => c.key)).toEqual([
      'assessing',
      'analysing',
      'arbitrating',
      'sizing',
      'checking',
      'submitting',
    ]);
    // Long-lived: it waits in idle between cycles and has no final state.
    expect(cycle!.root.children.map((c) => c.key)).toEqual(['idle', 'loading', 'deciding', 'recording']);
    expect(find(cycle!.root, 'cycle.idle')!.type).toBe('atomic');
  });

  it('the order manager: parallel regions mode and work', () => {
    const root = oms!.root;
    expect(root).toMatchObject({ id: 'oms', type: 'parallel' });
    expect(root.children.map((c) => [c.id, c.type])).toEqual([
      ['oms.mode', 'compound'],
      ['oms.work', 'compound'],
    ]);
    expect(find(root, 'oms.mode')!.children.map((c) => c.key)).toEqual(['halted', 'accepting', 'stopped']);
    expect(find(root, 'oms.work')!.children.map((c) => c.key)).toEqual(['idle', 'busy']);
  });

  it('every id is the XState node id, and atomic nodes have no children', () => {
    for (const view of machineViews())
      for (const node of all(view.root)) {
        expect(node.id.endsWith(node.key), node.id).toBe(true);
        if (node.type === 'atomic' || node.type === 'final') expect(node.children, node.id).toEqual([]);
        else expect(node.children.length, node.id).toBeGreaterThan(0);
      }
    expect(all(stateTree(orderManagerMachine)).map((n) => n.id)).toContain('oms.work.busy');
    expect(orderManagerMachine.getStateNodeById('oms.work.busy').key).toBe('busy');
  });
});

/**
 * The actor system's live view, as data: the machine definitions from GET /control/machines and the
 * active states an SSE `machines` event brings. Pure, so the merge and the counting are tested
 * without a browser.
 */

export type StateNodeType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface StateNode {
  /** e.g. "trading.running.cycling" */
  id: string;
  key: string;
  type: StateNodeType;
  children: StateNode[];
}

export interface MachineView {
  id: string;
  label: string;
  root: StateNode;
  /** Ids of the active state nodes, ancestors included. */
  active: string[];
}

export interface MachinesDocument {
  published_at: string | null;
  cycle: number | null;
  machines: MachineView[];
}

/** The data of an SSE `machines` event. */
export interface MachinesEvent {
  published_at: string | null;
  cycle: number | null;
  active: Record<string, string[]>;
}

/** The document with each machine's active states replaced by the event's (machines it omits keep theirs). */
export function applyMachinesEvent(doc: MachinesDocument, event: MachinesEvent): MachinesDocument {
  return {
    published_at: event.published_at,
    cycle: event.cycle,
    machines: doc.machines.map((m) => {
      const active = event.active[m.id];
      return Array.isArray(active) ? { ...m, active } : m;
    }),
  };
}

/** The active leaves (deepest active states), the short form shown beside a machine's name. */
export function activeLeaves(machine: MachineView): string[] {
  const active = new Set(machine.active);
  const leaves: string[] = [];
  const walk = (node: StateNode) => {
    if (!active.has(node.id)) return;
    const activeChildren = node.children.filter((c) => active.has(c.id));
    if (activeChildren.length === 0) leaves.push(node.id);
    activeChildren.forEach(walk);
  };
  walk(machine.root);
  return leaves;
}

/** A state id without its machine prefix: "trading.running.cycling" → "running.cycling". */
export function shortId(id: string): string {
  const dot = id.indexOf('.');
  return dot === -1 ? id : id.slice(dot + 1);
}

/**
 * Why the published states may no longer be the live ones, or null: the trading process writes
 * only when a state changes, so after it stopped or crashed its last states would stay highlighted
 * as if it were still running.
 */
export function staleMachinesReason(
  heartbeat: { stopped: boolean } | null,
  trading: { status: 'ok' | 'stale' | 'unknown' | 'down' | 'halted' } | null | undefined,
): string | null {
  if (heartbeat?.stopped) return 'the trading process has stopped';
  if (trading?.status === 'stale') return 'the trading process has missed its heartbeats';
  if (trading?.status === 'down') return 'the trading process is not running';
  return null;
}

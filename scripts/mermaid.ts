/**
 * Renders an XState machine as a Mermaid `stateDiagram-v2`, from the machine definition itself
 * (`machine.root` and its StateNodes), so the diagrams in docs/develop/machines.md cannot drift from the code.
 *
 *  - compound states become composite states, with `[*] --> initial` inside;
 *  - parallel states become composite states whose regions are separated by `--`; a parallel root is
 *    drawn as one composite named after the machine;
 *  - final states get `state --> [*]`;
 *  - transitions are labelled with their event type (and `[guard]`); eventless ones `always`, delayed
 *    ones `after <delay>`, an invoked actor's completion `onDone(src)` / `onError(src)`;
 *  - targetless transitions (the state handles the event without leaving it) and invoked actors are
 *    listed in a note beside the state, as `event / actions` and `invokes src`;
 *  - transitions declared on the root leave every top-level state that can receive an event (not
 *    final states, not transient states that an unguarded `always` leaves at once).
 *
 * Pure: no I/O. `scripts/machines-diagram.ts` writes the file.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition } from 'xstate';

/** A line-oriented block of the diagram: the top-level document or the body of one composite state. */
interface Block {
  edges: string[];
}

interface Edge {
  from: AnyStateNode;
  to: AnyStateNode;
  label: string;
}

const INDENT = '  ';

/** The Mermaid `stateDiagram-v2` source (without the ``` fence) for `machine`. */
export function toMermaid(machine: AnyStateMachine): string {
  return new Renderer(machine.root).render();
}

class Renderer {
  private readonly ids = new Map<AnyStateNode, string>();
  /** Edges to write into the block of each drawn composite (null: the top-level document). */
  private readonly blocks = new Map<AnyStateNode | null, Block>();
  /** Internal (targetless) transitions and invoked actors, per state, for its note. */
  private readonly notes = new Map<AnyStateNode, string[]>();
  /** The root is drawn as a state of its own when it is parallel (regions need a composite) or atomic. */
  private readonly rootDrawn: boolean;

  constructor(private readonly root: AnyStateNode) {
    this.rootDrawn = root.type === 'parallel' || root.type === 'atomic' || root.type === 'final';
    this.assignIds();
    this.collect(root);
  }

  render(): string {
    const lines = ['stateDiagram-v2'];
    const top: string[] = [];
    if (this.rootDrawn) {
      top.push(`[*] --> ${this.id(this.root)}`);
      top.push(...this.declare(this.root));
      if (this.root.type === 'final') top.push(`${this.id(this.root)} --> [*]`);
      top.push(...this.blockEdges(null));
    } else {
      top.push(...this.body(this.root, null));
    }
    lines.push(...top.map((l) => INDENT + l));
    return lines.join('\n') + '\n';
  }

  // ---- ids -------------------------------------------------------------------------------------

  /**
   * Each state's Mermaid id: its key when that key is unique in the machine and a plain identifier,
   * else its path joined with `_` (declared with the key as the label). Mermaid ids are global.
   */
  private assignIds(): void {
    const all = this.nodes(this.root);
    const drawn = this.rootDrawn ? all : all.filter((n) => n !== this.root);
    const keyCount = new Map<string, number>();
    for (const node of drawn) keyCount.set(this.label(node), (keyCount.get(this.label(node)) ?? 0) + 1);
    const used = new Set<string>();
    for (const node of drawn) {
      const key = this.label(node);
      let id =
        keyCount.get(key) === 1 && isPlainId(key)
          ? key
          : safeId([this.root.key || this.root.id, ...node.path].join('_'));
      while (used.has(id)) id += '_';
      used.add(id);
      this.ids.set(node, id);
    }
  }

  private label(node: AnyStateNode): string {
    return node === this.root ? this.root.id : node.key;
  }

  private id(node: AnyStateNode): string {
    const id = this.ids.get(node);
    if (id === undefined) throw new Error(`state ${node.id} is not drawn`);
    return id;
  }

  private nodes(node: AnyStateNode): AnyStateNode[] {
    return [node, ...Object.values(node.states).flatMap((child) => this.nodes(child as AnyStateNode))];
  }

  // ---- collecting transitions ----------------------------------------------------------------------

  private collect(node: AnyStateNode): void {
    for (const invoke of node.invoke) this.note(node, `invokes ${srcName(invoke.src)}`);
    const transitions: AnyTransitionDefinition[] = [...(node.always ?? []), ...[...node.transitions.values()].flat()];
    for (const t of transitions) {
      const label = this.transitionLabel(node, t);
      const targets = t.target ?? [];
      if (targets.length === 0) {
        const actions = t.actions.map(actionName).filter((a) => a.length > 0);
        this.note(node, actions.length > 0 ? `${label} / ${actions.join(', ')}` : label);
        continue;
      }
      for (const target of targets as AnyStateNode[]) {
        for (const from of this.sources(node)) this.addEdge({ from, to: target, label });
      }
    }
    for (const child of Object.values(node.states)) this.collect(child as AnyStateNode);
  }

  /** A transition on an undrawn root leaves each top-level state that can receive an event. */
  private sources(node: AnyStateNode): AnyStateNode[] {
    if (node !== this.root || this.rootDrawn) return [node];
    return Object.values(node.states)
      .map((s) => s as AnyStateNode)
      .filter((s) => s.type !== 'final' && !isTransient(s));
  }

  private transitionLabel(node: AnyStateNode, t: AnyTransitionDefinition): string {
    const guard = t.guard === undefined ? '' : ` [${guardName(t.guard)}]`;
    return `${this.eventLabel(node, t)}${guard}`;
  }

  private eventLabel(node: AnyStateNode, t: AnyTransitionDefinition): string {
    const delay = (t as { delay?: unknown }).delay;
    if (delay !== undefined) return typeof delay === 'number' ? `after ${delay}ms` : `after ${String(delay)}`;
    const type = String(t.eventType);
    if (type === '') return 'always';
    for (const [prefix, word] of [
      ['xstate.done.actor.', 'onDone'],
      ['xstate.error.actor.', 'onError'],
      ['xstate.snapshot.', 'onSnapshot'],
    ] as const) {
      if (type.startsWith(prefix)) {
        const invoke = node.invoke.find((i) => i.id === type.slice(prefix.length));
        return `${word}(${invoke ? srcName(invoke.src) : type.slice(prefix.length)})`;
      }
    }
    if (type.startsWith('xstate.done.state.')) return 'onDone';
    return type;
  }

  private addEdge(edge: Edge): void {
    const block = this.blockOf(edge.from, edge.to);
    let entry = this.blocks.get(block);
    if (!entry) {
      entry = { edges: [] };
      this.blocks.set(block, entry);
    }
    entry.edges.push(`${this.id(edge.from)} --> ${this.id(edge.to)} : ${sanitize(edge.label)}`);
  }

  private note(node: AnyStateNode, line: string): void {
    const lines = this.notes.get(node) ?? [];
    lines.push(sanitize(line));
    this.notes.set(node, lines);
  }

  /**
   * The block an edge is written in: the innermost drawn composite holding both ends (null for the
   * top level). Written after the states are declared, so Mermaid keeps each state where it was
   * first placed instead of pulling it into the block of the edge.
   */
  private blockOf(a: AnyStateNode, b: AnyStateNode): AnyStateNode | null {
    const chain = (n: AnyStateNode): AnyStateNode[] => {
      const out: AnyStateNode[] = [];
      for (let p = n.parent as AnyStateNode | undefined; p; p = p.parent as AnyStateNode | undefined) out.push(p);
      return out;
    };
    const bChain = new Set(chain(b));
    for (const p of chain(a)) {
      if (bChain.has(p)) return p === this.root && !this.rootDrawn ? null : p;
    }
    return null;
  }

  private blockEdges(block: AnyStateNode | null): string[] {
    return this.blocks.get(block)?.edges ?? [];
  }

  // ---- writing ---------------------------------------------------------------------------------

  /** The lines declaring `node`: a plain state, or a composite with its body. */
  private declare(node: AnyStateNode): string[] {
    const id = this.id(node);
    const key = this.label(node);
    const named = id === key ? id : `"${key}" as ${id}`;
    const lines: string[] = [];
    if (node.type === 'compound' || node.type === 'parallel') {
      lines.push(`state ${named} {`);
      lines.push(...this.body(node, node).map((l) => INDENT + l));
      lines.push('}');
    } else if (node.type === 'history') {
      lines.push(`state "${key} (${node.history === 'deep' ? 'deep ' : ''}history)" as ${id}`);
    } else {
      lines.push(id === key ? id : `state ${named}`);
    }
    const note = this.notes.get(node);
    if (note) lines.push(...noteLines(id, note));
    return lines;
  }

  /** The inside of a composite (or, with block null, the top-level document of a compound root). */
  private body(node: AnyStateNode, block: AnyStateNode | null): string[] {
    const lines: string[] = [];
    const children = Object.values(node.states).map((s) => s as AnyStateNode);
    if (node.type === 'parallel') {
      children.forEach((region, i) => {
        if (i > 0) lines.push('--');
        lines.push(...this.declare(region));
      });
    } else {
      for (const target of node.initial?.target ?? []) lines.push(`[*] --> ${this.id(target as AnyStateNode)}`);
      for (const child of children) lines.push(...this.declare(child));
      for (const child of children) if (child.type === 'final') lines.push(`${this.id(child)} --> [*]`);
    }
    lines.push(...this.blockEdges(block));
    if (block === null) {
      // The root's own notes (internal transitions on an undrawn root) go beside its initial state.
      const rootNote = this.notes.get(this.root);
      const first = node.initial?.target[0] as AnyStateNode | undefined;
      if (rootNote && first)
        lines.push(
          ...noteLines(
            this.id(first),
            rootNote.map((l) => `(any state) ${l}`),
          ),
        );
    }
    return lines;
  }
}

function noteLines(id: string, lines: string[]): string[] {
  if (lines.length === 1) return [`note right of ${id} : ${lines[0]}`];
  return [`note right of ${id}`, ...lines.map((l) => INDENT + l), 'end note'];
}

/** A state left at once by an unguarded eventless transition never handles an event. */
function isTransient(node: AnyStateNode): boolean {
  return (node.always ?? []).some((t) => t.guard === undefined && (t.target?.length ?? 0) > 0);
}

function isPlainId(key: string): boolean {
  // `default…` is a keyword prefix to Mermaid's state lexer.
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) && !/^default/i.test(key);
}

function safeId(raw: string): string {
  const id = raw.replace(/[^A-Za-z0-9_]/g, '_');
  return isPlainId(id) ? id : `s_${id}`;
}

/** Mermaid ends a label at `:` or `;`, and `#` / `%%` start comments. */
function sanitize(text: string): string {
  return text.replace(/[:;#]/g, ' ').replace(/%%/g, '%').replace(/\s+/g, ' ').trim();
}

function srcName(src: unknown): string {
  if (typeof src !== 'string') return 'inline actor';
  return src.startsWith('xstate.invoke.') ? 'inline actor' : src;
}

function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const name = (guard as { type?: unknown }).type ?? guard.name;
    return typeof name === 'string' && name !== '' && name !== 'guard' ? name.replace(/^xstate\./, '') : 'inline guard';
  }
  if (typeof guard === 'object' && guard !== null && 'type' in guard) {
    const { type, params } = guard as { type: unknown; params?: unknown };
    return `${String(type)}${paramsText(params)}`;
  }
  return 'guard';
}

/** `(k=v, …)` for plain parameter objects of primitives; nothing for dynamic (function) params. */
function paramsText(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  const entries = Object.entries(params as Record<string, unknown>);
  if (entries.length === 0 || !entries.every(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))) return '';
  return `(${entries.map(([k, v]) => `${k}=${String(v)}`).join(', ')})`;
}

function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') {
    const type = (action as { type?: unknown }).type;
    if (typeof type === 'string') return type.replace(/^xstate\./, '');
    return action.name && action.name !== 'actions' ? action.name : 'inline action';
  }
  if (typeof action === 'object' && action !== null && 'type' in action)
    return String((action as { type: unknown }).type);
  return '';
}

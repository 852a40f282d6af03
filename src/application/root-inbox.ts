/**
 * Events for the root actor from parts made before it: the store views that notice a fault (a
 * fenced write refused, a distrusted notification) and the safety monitor exist before the root,
 * since the root is built from what they guard. They send here; what arrives before the root is
 * connected is kept, in order, and delivered when it is; afterwards every event goes straight through.
 * So no part refers to an actor that does not exist yet.
 */

/** More than the few faults a start can see; a flood before the root exists keeps the newest. */
const MAX_WAITING = 64;

export interface RootInbox<E> {
  send(event: E): void;
  /** From now on events go to `root`, starting with those that waited. */
  connect(root: { send(event: E): void }): void;
}

export function createRootInbox<E>(): RootInbox<E> {
  let root: { send(event: E): void } | null = null;
  const waiting: E[] = [];
  return {
    send(event) {
      if (root) return root.send(event);
      waiting.push(event);
      if (waiting.length > MAX_WAITING) waiting.shift();
    },
    connect(target) {
      root = target;
      for (const event of waiting.splice(0)) target.send(event);
    },
  };
}

/**
 * Views of the store for the trading process: the same store with the trusted control in place of
 * the raw one, and a key-value store whose writes all carry the trading lease's fencing token (the
 * account and venue writes), so a process that lost the lease writes nothing.
 */
import type { ControlStore } from '../ports/control-store.js';
import type { KeyValueStore } from '../ports/key-value-store.js';
import type { Store } from '../ports/store.js';
import { StoreFaultError } from '../ports/store-errors.js';

export function withControl(store: Store, control: ControlStore): Store {
  return {
    kind: store.kind,
    description: store.description,
    control,
    events: store.events,
    commands: store.commands,
    kv: store.kv,
    lease: store.lease,
    ping: () => store.ping(),
    evictionRisk: () => store.evictionRisk(),
    clockSkew: () => store.clockSkew(),
    close: () => store.close(),
  };
}

/**
 * `onFault` hears every refused write at once (a superseded fence, a replaced or emptied store), so
 * the process halts on the first refusal rather than at its next lease renewal.
 */
export function fencedKv(
  kv: KeyValueStore,
  fence: number | (() => number),
  onFault: (err: StoreFaultError) => void = () => {},
): KeyValueStore {
  // A function when the token can move (the lease taken back after it ran out on a slow store).
  const current = typeof fence === 'number' ? () => fence : fence;
  return {
    get: (key) => kv.get(key),
    set: (key, value, _fence, options) =>
      kv.set(key, value, current(), options).catch((err: unknown) => {
        if (err instanceof StoreFaultError) onFault(err);
        throw err;
      }),
    delete: (key) => kv.delete(key),
  };
}

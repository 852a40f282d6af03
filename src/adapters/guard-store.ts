/**
 * The adapter boundary for failures: wraps a store so that every rejection of a port method that
 * the backend caused (unreachable, timed out, locked, read-only, …) reaches the caller as a
 * StoreUnavailableError carrying the backend's message, whatever the backend. Errors the backend
 * did not cause (a bug, a bad argument) pass through unchanged and stay a 500 in the API; store
 * faults raised inside the adapters (StoreFaultError) pass through as they are.
 */
import { isStoreFailure } from '../ports/store-errors.js';
import type { StoreUnavailableError } from '../ports/store-errors.js';
import type { Store } from '../ports/store.js';

/** The backend's own failure as a StoreUnavailableError (message safe to show), or null for a bug. */
export type FailureClassifier = (err: unknown) => StoreUnavailableError | null;

export function guardStore(store: Store, classify: FailureClassifier): Store {
  const map = (err: unknown): unknown => (isStoreFailure(err) ? err : (classify(err) ?? err));
  return {
    kind: store.kind,
    description: store.description,
    control: guardMethods(store.control, map),
    events: guardMethods(store.events, map),
    commands: guardMethods(store.commands, map),
    kv: guardMethods(store.kv, map),
    lease: guardMethods(store.lease, map),
    ping: () => store.ping().catch((err: unknown) => Promise.reject(map(err))),
    evictionRisk: () => store.evictionRisk().catch((err: unknown) => Promise.reject(map(err))),
    clockSkew: () => store.clockSkew().catch((err: unknown) => Promise.reject(map(err))),
    close: () => store.close(),
  };
}

/**
 * The same object, with each method's rejection (and synchronous throw) passed through `map`. The
 * wrapper of a method is made once and reused while the method stays the same: the trading cycle
 * calls the store a dozen times, and a simulation run a hundred thousand cycles over.
 */
function guardMethods<T extends object>(target: T, map: (err: unknown) => unknown): T {
  const wrappers = new Map<PropertyKey, { method: unknown; wrapper: (...args: unknown[]) => unknown }>();
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      const known = wrappers.get(property);
      if (known?.method === value) return known.wrapper;
      const wrapper = (...args: unknown[]) => {
        try {
          const result: unknown = Reflect.apply(value, object, args);
          return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(map(err))) : result;
        } catch (err) {
          throw map(err);
        }
      };
      wrappers.set(property, { method: value, wrapper });
      return wrapper;
    },
  });
}

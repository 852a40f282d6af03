/**
 * The store as our processes must see it when anyone else can write it (issue 30, finding 10):
 * every command queued and every control record written carries a MAC under CONTROL_SECRET
 * (src/domain/control-mac.ts), and every one read is checked before anyone acts on it.
 *  - A command whose MAC is missing or wrong comes back as a MalformedCommandRecord with the reason,
 *    so the trading process completes it as `rejected`, audited and logged as an error, and never
 *    runs it (src/application/command-pump.ts, command-completion.ts).
 *  - A control record whose MAC is missing or wrong is StoreFaultError 'tampered': the trading
 *    process halts, the API answers 503, as for any store it cannot trust.
 * The MACs live in the records the adapters store (a `mac` field) and are removed from every record
 * handed on, so nothing above this layer sees or returns them. One HMAC-SHA256 per record read or
 * written: microseconds, nothing next to a store round trip (the kill's latency stays).
 */
import { commandMac, controlRecordMac, macProblem } from '../domain/control-mac.js';
import { commandVersion, isMalformed } from '../domain/commands.js';
import type { Command, StoredCommand } from '../domain/commands.js';
import type { ControlRecord } from '../domain/control.js';
import type { CommandQueue } from '../ports/command-queue.js';
import type { ControlStore } from '../ports/control-store.js';
import { StoreFaultError } from '../ports/store-errors.js';
import type { Store } from '../ports/store.js';

/** `store` with its commands and control record signed when written and checked when read. */
export function authenticatedStore(store: Store, secret: string): Store {
  return {
    kind: store.kind,
    description: store.description,
    control: authenticatedControl(store.control, secret),
    events: store.events,
    commands: authenticatedCommands(store.commands, secret),
    kv: store.kv,
    lease: store.lease,
    ping: () => store.ping(),
    evictionRisk: () => store.evictionRisk(),
    clockSkew: () => store.clockSkew(),
    close: () => store.close(),
  };
}

const withoutMac = <T extends { mac?: string }>(record: T): Omit<T, 'mac'> => {
  const { mac: _mac, ...rest } = record;
  return rest;
};

function authenticatedControl(inner: ControlStore, secret: string): ControlStore {
  const sign = (record: ControlRecord): ControlRecord => {
    const bare = withoutMac(record);
    return { ...bare, mac: controlRecordMac(secret, bare) };
  };
  const open = (record: ControlRecord): ControlRecord => {
    const bare = withoutMac(record);
    const problem = macProblem(controlRecordMac(secret, bare), record.mac);
    if (problem === null) return bare;
    throw new StoreFaultError(
      'tampered',
      `the control record (${bare.state} at epoch ${bare.epoch}) is not authenticated under CONTROL_SECRET: ${problem}. ` +
        'Nothing trades on it. If this store is ours and was written by a release before MACs, or CONTROL_SECRET ' +
        'was changed, accept it deliberately with `tcs store adopt --reason "…"`, which re-signs it',
    );
  };
  return {
    read: async () => open(await inner.read()),
    initialise: (at) => inner.initialise(at, (record) => controlRecordMac(secret, record)),
    adopt: (record, audit) => inner.adopt(sign(record), audit),
    async compareAndSet(change) {
      const result = await inner.compareAndSet({ ...change, next: change.next && sign(change.next) });
      return result.written ? result : { written: false, current: open(result.current) };
    },
    // A notification whose record is not authenticated is not passed on: the next read (every
    // process re-reads on its own ticks) raises the fault instead.
    subscribe: (listener) =>
      inner.subscribe((record) => {
        let opened: ControlRecord;
        try {
          opened = open(record);
        } catch {
          return;
        }
        listener(opened);
      }),
  };
}

function authenticatedCommands(inner: CommandQueue, secret: string): CommandQueue {
  const macOf = (command: Pick<Command, 'id' | 'type' | 'payload'>) =>
    commandMac(secret, {
      id: command.id,
      type: command.type,
      version: commandVersion(command.type),
      payload: command.payload,
    });
  const open = (stored: StoredCommand): StoredCommand => {
    if (isMalformed(stored)) return stored;
    const { mac, payload: _payload, type: _type, ...state } = stored;
    const problem = macProblem(macOf(stored), mac);
    if (problem === null) return withoutMac(stored) as StoredCommand;
    return {
      ...state,
      type: stored.type,
      problem: `the command is not authenticated under CONTROL_SECRET: ${problem}`,
    };
  };
  return {
    async enqueue(command) {
      const { record, duplicate } = await inner.enqueue({ ...command, mac: macOf(command) });
      return { record: open(record), duplicate };
    },
    claim: async (consumer, options) => (await inner.claim(consumer, options)).map(open),
    complete: async (id, result, at) => open(await inner.complete(id, result, at)),
    completeWithEntry: async (id, result, at, entry) => {
      const done = await inner.completeWithEntry(id, result, at, entry);
      return { record: open(done.record), entry: done.entry };
    },
    completedIds: () => inner.completedIds(),
    get: async (id) => {
      const stored = await inner.get(id);
      return stored && open(stored);
    },
    subscribe: (listener) => inner.subscribe(listener),
  };
}

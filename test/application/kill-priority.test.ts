/**
 * A kill's priority mark is only about who goes first (src/application/kill-priority.ts): a kill that
 * lost a race and cannot write its mark (the store refuses that write) still retries until it is
 * recorded, instead of giving up with the failed mark (found in review). And a pause that meets a
 * pending mark waits for the kill, then is judged on the killed record (refused), never written first.
 * And (issue 30) a mark is judged on each reader's monotonic clock from when it first saw it, not by
 * the writer's wall time: a reader an hour behind no longer stands aside for an hour.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { applyControl } from '../../src/application/control-transition.js';
import { killPriority } from '../../src/application/kill-priority.js';
import type { ControlStore } from '../../src/ports/control-store.js';
import type { KeyValueStore } from '../../src/ports/key-value-store.js';
import { StoreUnavailableError } from '../../src/ports/store-errors.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const who = (actor: string) => ({ actor, at: new Date().toISOString() });

describe('kill priority', () => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('a kill whose mark cannot be written still retries until it is recorded', async () => {
    t = await openTestStore('sqlite');
    const other = await t.openAnother();
    let races = 1; // another process wins the first race
    const control: ControlStore = {
      ...t.store.control,
      read: () => t!.store.control.read(),
      compareAndSet: async (change) => {
        if (races-- > 0) await applyControl(other.control, { type: 'control.pause', reason: 'the other' }, who('o'));
        return t!.store.control.compareAndSet(change);
      },
    };
    const refusing: KeyValueStore = {
      ...t.store.kv,
      get: (key) => t!.store.kv.get(key),
      set: () => Promise.reject(new StoreUnavailableError('redis: Command timed out')),
      delete: (key) => t!.store.kv.delete(key),
    };
    const result = await applyControl(control, { type: 'control.kill', reason: 'k' }, who('op'), {
      priority: killPriority(refusing),
    });
    expect(result).toMatchObject({ outcome: 'changed', to: 'killed' });
    expect((await t.store.control.read()).state).toBe('killed');
  });

  it('a pause that meets a pending kill waits for it and is then refused on the killed record', async () => {
    t = await openTestStore('sqlite');
    const priority = killPriority(t.store.kv);
    await priority.announce(5_000);
    const pause = applyControl(t.store.control, { type: 'control.pause', reason: 'p' }, who('p'), { priority });
    let settled = false;
    void pause.finally(() => (settled = true));
    await applyControl(t.store.control, { type: 'control.kill', reason: 'k' }, who('k'), { priority });
    expect(settled).toBe(false); // still standing aside
    await priority.withdraw();
    expect(await pause).toMatchObject({ outcome: 'refused', from: 'killed' });
  });

  it("a mark left by a kill that died lasts its duration on the reader's monotonic clock, whatever the wall clocks say", async () => {
    t = await openTestStore('sqlite');
    const T = Date.UTC(2026, 0, 5);
    const writer = killPriority(t.store.kv, { now: () => T, monotonic: () => 0 });
    await writer.announce(5_000); // and the writer dies: nobody withdraws it
    for (const offset of [-3_600_000, 3_600_000]) {
      const reader = { wall: T + offset, mono: 1_000_000 };
      const priority = killPriority(t.store.kv, { now: () => reader.wall, monotonic: () => reader.mono });
      expect(await priority.pending(), `reader ${offset} ms off`).toBe(true);
      reader.mono += 4_900;
      reader.wall += 4_900;
      expect(await priority.pending(), `reader ${offset} ms off`).toBe(true);
      reader.mono += 200;
      reader.wall += 200;
      expect(await priority.pending(), `reader ${offset} ms off`).toBe(false);
    }
  });
});

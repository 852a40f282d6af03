/**
 * The safety monitor's decisions on a real store and a simulated clock: a store that fails only
 * briefly halts nothing (nothing can pass without it anyway), one silent for STORE_LOSS_HALT_MS
 * halts; a replaced store halts at once; an old API heartbeat left by a dead API is not taken for a
 * live control plane; a halt ends only after its recovery (cancel + audit) succeeded.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createSafetyMonitor } from '../../src/application/safety-monitor.js';
import type { SafetyHalt } from '../../src/application/safety-monitor.js';
import { trustedControl } from '../../src/application/trusted-control.js';
import { API_HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import type { ControlStore } from '../../src/ports/control-store.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const T0 = Date.UTC(2026, 0, 5);

/** The real control store, whose reads are refused (as by a stopped server) while `down()` holds. */
const readRefusedWhile =
  (down: () => boolean) =>
  (store: ControlStore): ControlStore => ({
    ...store,
    read: () => (down() ? Promise.reject(new Error('connect ECONNREFUSED')) : store.read()),
  });

describe('safety monitor', () => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  async function rig(options: { wrap?: (c: ControlStore) => ControlStore; recoverFails?: () => boolean } = {}) {
    t = await openTestStore('sqlite');
    const clock = new SimulatedClock();
    clock.set(T0);
    const calls: string[] = [];
    const monitor = createSafetyMonitor({
      clock,
      control: options.wrap ? options.wrap(t.store.control) : t.store.control,
      kv: t.store.kv,
      controlPlaneTimeoutMs: 10_000,
      storeLossHaltMs: 3_000,
      syncControl: () => {},
      halt: (h: SafetyHalt) => calls.push(`halt:${h.reason}`),
      async recover(h) {
        if (options.recoverFails?.()) throw new Error('venue unreachable');
        calls.push(`recover:${[...(h.earlier ?? []), h].map((x) => x.reason).join('>')}`);
      },
      clear: () => calls.push('clear'),
      log: () => {},
    });
    const beat = async (seq: number, ts = clock.now()) =>
      t!.store.kv.set(API_HEARTBEAT_KEY, { pid: 1, host: 'h', ts, seq });
    return { clock, calls, monitor, beat };
  }

  it('an API heartbeat older than the timeout at start is no control plane; a moving one is', async () => {
    const { clock, calls, monitor, beat } = await rig();
    await beat(1, T0 - 60_000); // left by an API that died a minute ago
    await monitor.tick();
    expect(calls).toEqual(['halt:control_plane_lost']);
    await beat(2);
    clock.increment(250);
    await monitor.tick();
    expect(calls).toEqual(['halt:control_plane_lost', 'recover:control_plane_lost', 'clear']);
    clock.increment(9_000);
    await monitor.tick(); // the beat did not move, but 9 s < 10 s
    expect(monitor.halted()).toBeNull();
    clock.increment(1_500);
    await monitor.tick();
    expect(monitor.halted()?.reason).toBe('control_plane_lost');
  });

  it('a store that fails briefly halts nothing; one silent for STORE_LOSS_HALT_MS halts', async () => {
    let down = false;
    const { clock, calls, monitor, beat } = await rig({
      wrap: readRefusedWhile(() => down),
    });
    await beat(1);
    await monitor.tick();
    expect(calls).toEqual([]);
    down = true;
    await monitor.tick();
    clock.increment(2_900);
    await beat(2);
    await monitor.tick();
    expect(calls).toEqual([]);
    clock.increment(200);
    await monitor.tick();
    expect(calls).toEqual(['halt:store_unreachable']);
    down = false;
    await beat(3);
    await monitor.tick();
    expect(calls).toEqual(['halt:store_unreachable', 'recover:store_unreachable', 'clear']);
  });

  it('a replaced store halts at once, naming the adoption command', async () => {
    const { calls, monitor, beat } = await rig({
      wrap: (store) => trustedControl(store, { memory: { storeId: 'the-store-i-knew', epoch: 0, killedAt: null } }),
    });
    await beat(1);
    await monitor.tick();
    expect(calls).toEqual(['halt:store_replaced']);
    expect(monitor.halted()?.message).toMatch(/tcs store adopt/);
  });

  it('a halt whose recovery fails (cancel or audit) is not ended until a recovery succeeds', async () => {
    let failing = true;
    const { clock, calls, monitor, beat } = await rig({ recoverFails: () => failing });
    await monitor.tick();
    expect(calls).toEqual(['halt:control_plane_lost']);
    await beat(1);
    clock.increment(250);
    await monitor.tick();
    expect(monitor.halted()?.reason).toBe('control_plane_lost');
    failing = false;
    await beat(2);
    await monitor.tick();
    expect(calls).toEqual(['halt:control_plane_lost', 'recover:control_plane_lost', 'clear']);
    expect(monitor.halted()).toBeNull();
  });

  it('a halt superseded by another keeps the first one: both are handed to the recovery, in order', async () => {
    // Found under load: the store was away longer than CONTROL_PLANE_TIMEOUT, so when it came back the
    // API's heartbeat (which it could not write meanwhile) was stale too; the control_plane_lost halt
    // replaced the store_unreachable one, and the audit trail never learned the store was lost.
    let down = false;
    const { clock, calls, monitor, beat } = await rig({
      wrap: readRefusedWhile(() => down),
    });
    await beat(1);
    await monitor.tick();
    down = true;
    await monitor.tick();
    clock.increment(3_000);
    await monitor.tick();
    expect(calls).toEqual(['halt:store_unreachable']);
    const unreachableSince = monitor.halted()!.since;
    clock.increment(9_000);
    down = false;
    await monitor.tick(); // the store is back, the API's last beat is 12 s old
    expect(calls).toEqual(['halt:store_unreachable', 'halt:control_plane_lost']);
    expect(monitor.halted()?.earlier?.map((h) => [h.reason, h.since])).toEqual([
      ['store_unreachable', unreachableSince],
    ]);
    await beat(2);
    await monitor.tick();
    expect(calls.slice(2)).toEqual(['recover:store_unreachable>control_plane_lost', 'clear']);
    expect(monitor.halted()).toBeNull();
  });

  it('a halt that flaps for hours remembers a bounded list: where it began and the latest', async () => {
    let down = false;
    const { clock, monitor, beat } = await rig({
      wrap: readRefusedWhile(() => down),
    });
    await beat(1);
    await monitor.tick();
    let first: number | undefined;
    for (let i = 0; i < 100; i++) {
      down = true;
      await monitor.tick();
      clock.increment(3_000);
      await monitor.tick(); // store_unreachable
      first ??= monitor.halted()!.since;
      down = false;
      clock.increment(8_000);
      await monitor.tick(); // back, but the API's beat is stale: control_plane_lost
    }
    const earlier = monitor.halted()!.earlier!;
    expect(earlier).toHaveLength(64);
    expect(earlier[0]).toMatchObject({ reason: 'store_unreachable', since: first });
    expect(earlier.at(-1)!.reason).toBe('store_unreachable');
    expect(monitor.halted()!.reason).toBe('control_plane_lost');
  });
});

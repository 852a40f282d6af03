/**
 * The safety monitor's observations on a real store and a simulated clock: a store that fails only
 * briefly reports nothing (nothing can pass without it anyway), one silent for STORE_LOSS_HALT_MS is
 * a fault; a replaced store is a fault at once; an old API heartbeat left by a dead API is not taken
 * for a live control plane; the checks passing again report `safety.clear`. What a fault does (the
 * halt, its replacement, its recovery) is the root statechart's (test/machines/trading.machine.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createSafetyMonitor } from '../../src/application/safety-monitor.js';
import type { SafetyObservation } from '../../src/application/safety-monitor.js';
import { trustedControl } from '../../src/application/trusted-control.js';
import { API_HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import type { ControlStore } from '../../src/ports/control-store.js';
import { writeDocument } from '../../src/ports/documents.js';
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

  async function rig(
    options: {
      wrap?: (c: ControlStore) => ControlStore;
      exchangeSilence?: () => { forMs: number; error: string } | null;
      exchangeBanned?: () => string | null;
      exchangeSwitchDown?: () => string | null;
    } = {},
  ) {
    t = await openTestStore('sqlite');
    const clock = new SimulatedClock();
    clock.set(T0);
    const observed: SafetyObservation[] = [];
    const monitor = createSafetyMonitor({
      clock,
      control: options.wrap ? options.wrap(t.store.control) : t.store.control,
      kv: t.store.kv,
      controlPlaneTimeoutMs: 10_000,
      storeLossHaltMs: 3_000,
      ...(options.exchangeSilence
        ? {
            exchange: {
              silence: options.exchangeSilence,
              lossHaltMs: 5_000,
              ...(options.exchangeBanned ? { banned: options.exchangeBanned } : {}),
              ...(options.exchangeSwitchDown ? { switchDown: options.exchangeSwitchDown } : {}),
            },
          }
        : {}),
      report: (o) => observed.push(o),
      log: () => {},
    });
    /** What each tick reported, in order: `halt:<reason>`, `clear`, or `-` for nothing. */
    const seen: string[] = [];
    const tick = async () => {
      const before = observed.length;
      await monitor.tick();
      const last = observed.length > before ? observed.at(-1)! : null;
      seen.push(last === null ? '-' : last.type === 'safety.halt' ? `halt:${last.reason}` : 'clear');
      return last;
    };
    const beat = async (seq: number, ts = clock.now()) =>
      writeDocument(t!.store.kv, API_HEARTBEAT_KEY, { pid: 1, host: 'h', ts, seq });
    return { clock, seen, tick, monitor, beat };
  }

  it('an API heartbeat older than the timeout at start is no control plane; a moving one is', async () => {
    const { clock, seen, tick, beat } = await rig();
    await beat(1, T0 - 60_000); // left by an API that died a minute ago
    await tick();
    await beat(2);
    clock.increment(250);
    await tick();
    clock.increment(9_000);
    await tick(); // the beat did not move, but 9 s < 10 s
    clock.increment(1_500);
    const last = await tick();
    expect(seen).toEqual(['halt:control_plane_lost', 'clear', 'clear', 'halt:control_plane_lost']);
    expect(last).toMatchObject({ at: T0 + 10_750 });
  });

  it('a store that fails briefly reports nothing; one silent for STORE_LOSS_HALT_MS is a fault', async () => {
    let down = false;
    const { clock, seen, tick, beat } = await rig({ wrap: readRefusedWhile(() => down) });
    await beat(1);
    await tick();
    down = true;
    await tick();
    clock.increment(2_900);
    await beat(2);
    await tick();
    clock.increment(200);
    await tick();
    down = false;
    await beat(3);
    await tick();
    expect(seen).toEqual(['clear', '-', '-', 'halt:store_unreachable', 'clear']);
  });

  it('an exchange silent for EXCHANGE_LOSS_HALT_MS is a fault; shorter is nothing; its answer clears it', async () => {
    let silentFor: number | null = null;
    const { seen, tick, beat } = await rig({
      exchangeSilence: () =>
        silentFor === null ? null : { forMs: silentFor, error: 'GET /fapi/v2/account request timed out' },
    });
    await beat(1);
    await tick();
    silentFor = 4_999;
    await tick();
    silentFor = 5_000;
    const halt = await tick();
    silentFor = null;
    await tick();
    expect(seen).toEqual(['clear', 'clear', 'halt:exchange_unreachable', 'clear']);
    expect(halt).toMatchObject({
      message: expect.stringMatching(
        /the exchange has not answered for 5000 ms \(EXCHANGE_LOSS_HALT_MS 5000\): GET \/fapi\/v2\/account request timed out/,
      ),
    });
  });

  it('an exchange ban (418) is a fault at once, naming its end, asking for the silence still; it clears when the ban is over', async () => {
    let ban: string | null = null;
    let asked = 0;
    const { seen, tick, beat } = await rig({
      exchangeSilence: () => {
        asked++; // asking probes the exchange: it must go on during a ban, or nothing sees its end
        return null;
      },
      exchangeBanned: () => ban,
    });
    await beat(1);
    await tick();
    ban = 'the exchange banned this IP until 2026-01-05T12:20:01.000Z (418, Retry-After 1200 s): Way too many requests';
    const halt = await tick();
    await tick();
    ban = null;
    await tick();
    expect(seen).toEqual(['clear', 'halt:exchange_banned', 'halt:exchange_banned', 'clear']);
    expect(halt).toMatchObject({ message: expect.stringMatching(/banned this IP until 2026-01-05T12:20:01.000Z/) });
    expect(asked).toBe(4);
  });

  it("a held dead-man's switch (Bybit's DCP) whose connection stays down halts new exposure, naming why; it clears when it is back", async () => {
    let down: string | null = null;
    const { seen, tick, beat } = await rig({ exchangeSilence: () => null, exchangeSwitchDown: () => down });
    await beat(1);
    await tick();
    down = "the exchange's dead-man's switch connection has been down 10000 ms (grace 10000 ms): connection refused";
    const halt = await tick();
    down = null;
    await tick();
    expect(seen).toEqual(['clear', 'halt:exchange_switch_down', 'clear']);
    expect(halt).toMatchObject({ message: expect.stringMatching(/switch connection has been down 10000 ms/) });
  });

  it('a replaced store is a fault at once, naming the adoption command', async () => {
    const { tick, beat } = await rig({
      wrap: (store) => trustedControl(store, { memory: { storeId: 'the-store-i-knew', epoch: 0, killedAt: null } }),
    });
    await beat(1);
    expect(await tick()).toMatchObject({ type: 'safety.halt', reason: 'store_replaced', message: /tcs store adopt/ });
  });

  it('a tick hands back the record it read, for the root to be brought to it', async () => {
    const { monitor, beat } = await rig();
    await beat(1);
    expect(await monitor.tick()).toMatchObject({ state: 'running', epoch: 0 });
  });

  it('a fault seen elsewhere (a fenced write refused) is reported at once', async () => {
    const { monitor } = await rig();
    const observed: SafetyObservation[] = [];
    const own = createSafetyMonitor({
      clock: { now: () => T0 },
      control: t!.store.control,
      kv: t!.store.kv,
      controlPlaneTimeoutMs: null,
      storeLossHaltMs: 3_000,
      report: (o) => observed.push(o),
      log: () => {},
    });
    expect(monitor).toBeDefined();
    const { StoreFaultError } = await import('../../src/ports/store-errors.js');
    own.fault(new StoreFaultError('fenced', 'another process owns this store now'));
    expect(observed).toEqual([
      { type: 'safety.halt', reason: 'store_fenced', message: 'another process owns this store now', at: T0 },
    ]);
  });
});

/**
 * The machines publisher on the real trading actor system (root, cycle, order manager with the
 * paper venue on a real SQLite store, a SimulatedClock for the machines): what it writes to
 * MACHINES_KEY is the actors' active StateNode ids, a cycle's transitions cost a bounded number of
 * writes, a pause lands, and a run with background timers off (as `tcs simulate` runs) writes none.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot } from 'xstate';
import { activeStateIds } from '../../src/application/machine-states.js';
import { applyControl } from '../../src/application/control-transition.js';
import { parseMachinesDocument } from '../../src/domain/machines-document.js';
import { MACHINES_KEY } from '../../src/domain/runtime-documents.js';
import type { MachinesDocument } from '../../src/domain/runtime-documents.js';
import type { KeyValueStore } from '../../src/ports/key-value-store.js';
import { startMachinesPublisher } from '../../src/runtime/trading/machines-publisher.js';
import type { MachinesPublisher } from '../../src/runtime/trading/machines-publisher.js';
import { PERMISSIVE_ENV, openTestTrading } from '../support/trading.js';
import { createSyntheticFeed } from '../../src/adapters/market-data/index.js';
import { generateKey } from '../../src/domain/keys.js';
import type { MarketFeed } from '../../src/ports/market-feed.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';
import type { TestTrading } from '../support/trading.js';
import { pino } from 'pino';

const CYCLE = 60_000;
const ALTERNATING = fileURLToPath(new URL('../fixtures/strategies/btc-alternating.ts', import.meta.url));
const silent = pino({ level: 'silent' });

describe('the machines publisher on the real actor system', () => {
  let t: TestTrading | undefined;
  let publisher: MachinesPublisher | undefined;
  afterEach(async () => {
    await publisher?.stop();
    publisher = undefined;
    await t?.close();
    t = undefined;
  });

  const read = async () => parseMachinesDocument(await t!.store.kv.get(MACHINES_KEY));

  it('writes nothing when background timers are off (simulated-clock runs, `tcs simulate`)', async () => {
    t = await openTestTrading('sqlite');
    await t.advance(CYCLE);
    expect(t.events('cycle_end').length).toBeGreaterThanOrEqual(2);
    expect(await t.store.kv.get(MACHINES_KEY)).toBeNull();
  });

  it("records a cycle actor's real states, from loading through the decision steps to recording", async () => {
    t = await openTestTrading('sqlite', { STRATEGIES: ALTERNATING });
    const seen: string[][] = [];
    let watched: AnyActorRef | undefined;
    const root = t.system.actor.subscribe((snapshot) => {
      const cycle = Object.values(snapshot.children as Record<string, AnyActorRef>).find((c) => c?.src === 'cycle');
      if (!cycle || cycle === watched) return;
      watched = cycle;
      seen.push(activeStateIds(cycle.getSnapshot() as AnyMachineSnapshot));
      cycle.subscribe({ next: (s) => seen.push(activeStateIds(s as AnyMachineSnapshot)), error: () => {} });
    });
    await t.advance(CYCLE);
    root.unsubscribe();
    expect(seen[0]).toEqual(['cycle', 'cycle.loading']);
    for (const step of ['analysing', 'arbitrating', 'sizing', 'checking', 'submitting'])
      expect(seen, step).toContainEqual(['cycle', 'cycle.deciding', `cycle.deciding.${step}`]);
    expect(seen).toContainEqual(['cycle', 'cycle.recording']);
    // The long-lived cycle actor waits in idle for the next cycle.
    expect(seen.at(-1)).toEqual(['cycle', 'cycle.idle']);
  });

  it('publishes the active states, coalesced, and a pause lands', async () => {
    t = await openTestTrading('sqlite', { STRATEGIES: ALTERNATING });
    const writes: MachinesDocument[] = [];
    // The real store's kv, counting what reaches it.
    const kv: KeyValueStore = {
      get: (key) => t!.store.kv.get(key),
      set: async (key, value) => {
        if (key === MACHINES_KEY) writes.push(value as MachinesDocument);
        await t!.store.kv.set(key, value);
      },
      delete: (key) => t!.store.kv.delete(key),
    };
    publisher = startMachinesPublisher({
      actor: t.system.actor,
      kv,
      clock: t.clock,
      log: silent,
      intervalMs: 20,
    });

    await vi.waitFor(async () => expect((await read())?.active.trading).toContain('trading.control.running.waiting'));
    const idle = (await read())!;
    expect(idle.active.trading).toEqual([
      'trading',
      'trading.control',
      'trading.control.running',
      'trading.control.running.waiting',
    ]);
    expect(idle.cycle).toBeNull();
    expect(idle.active.cycle).toEqual([]);
    expect(idle.active['order-manager']).toEqual([
      'oms',
      'oms.mode',
      'oms.mode.accepting',
      'oms.work',
      'oms.work.idle',
    ]);

    // A whole cycle (a dozen transitions of three actors) in a few ms: a bounded number of writes.
    const before = writes.length;
    const started = Date.now();
    await t.advance(CYCLE);
    await new Promise((resolve) => setTimeout(resolve, 60)); // past the interval: the trailing write is done
    const elapsed = Date.now() - started;
    // Uncoalesced, the cycle's ~15 transitions of three actors would each be a write.
    expect(writes.length - before).toBeLessThanOrEqual(Math.ceil(elapsed / 20) + 1);
    expect(t.events('cycle_end').length).toBeGreaterThanOrEqual(2);
    expect((await read())!.active.trading).toContain('trading.control.running.waiting');

    await applyControl(
      t.store.control,
      { type: 'control.pause', reason: 'test' },
      { actor: 'test', at: new Date().toISOString() },
    );
    await vi.waitFor(async () => {
      const doc = (await read())!;
      expect(doc.active.trading).toContain('trading.control.paused');
      expect(doc.active['order-manager']).toContain('oms.mode.halted');
    });
  });

  it('publishes the running cycle with its number while it runs, and [] once it ended', async () => {
    const feed = heldFeed();
    t = await openTestTrading('sqlite', {}, undefined, { feed });
    publisher = startMachinesPublisher({
      actor: t.system.actor,
      kv: t.store.kv,
      clock: t.clock,
      log: silent,
      intervalMs: 5,
    });
    // Hold the next cycle in `loading`: its market read waits for the test's release.
    const release = feed.hold();
    const cycleNumber = t.events('cycle_start').length + 1;
    t.clock.increment(CYCLE);
    await vi.waitFor(async () => {
      const doc = (await read())!;
      expect(doc.cycle).toBe(cycleNumber);
      expect(doc.active.trading).toContain('trading.control.running.cycling');
      expect(doc.active.cycle).toEqual(['cycle', 'cycle.loading']);
    });
    release();
    await t.system.settled();
    await vi.waitFor(async () => {
      const doc = (await read())!;
      expect(doc.cycle).toBeNull();
      expect(doc.active.cycle).toEqual([]);
      expect(doc.active.trading).toContain('trading.control.running.waiting');
    });
  });

  it('a store that refuses the writes: logged once per outage, retried, trading undisturbed', async () => {
    t = await openTestTrading('sqlite', { STRATEGIES: ALTERNATING });
    const closed = await t.openAnother();
    await closed.close(); // a real store whose every command now fails
    let down = true;
    let refused = 0;
    const kv: KeyValueStore = {
      get: (key) => t!.store.kv.get(key),
      set: (key, value) => (down ? (refused++, closed.kv.set(key, value)) : t!.store.kv.set(key, value)),
      delete: (key) => t!.store.kv.delete(key),
    };
    const logged: Array<{ level: number; msg: string }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
    // Retried every 20 ms here (1 s by default), so three tries come without a wait of seconds.
    const deps = { actor: t.system.actor, kv, clock: t.clock, log, intervalMs: 5, retryMs: 20 };
    publisher = startMachinesPublisher(deps);
    await t.advance(CYCLE); // trading goes on while nothing can be published
    await vi.waitFor(() => expect(refused).toBeGreaterThanOrEqual(3)); // three tries, all refused
    expect(logged.filter((l) => l.msg.startsWith('machine states'))).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining('publishing failed') }),
    ]);
    expect(t.events('cycle_end').length).toBeGreaterThanOrEqual(2);
    expect(await read()).toBeNull();
    down = false;
    await vi.waitFor(async () => expect((await read())?.active.trading).toContain('trading.control.running.waiting'), {
      timeout: 3_000,
    });
    expect(logged.filter((l) => l.msg.startsWith('machine states')).map((l) => l.level)).toEqual([40, 30]);
  });
});

/** The synthetic market, whose reads can be held until the test releases them. */
function heldFeed(): MarketFeed & { hold(): () => void } {
  const config = readTradingConfig({
    RISK_HMAC_SECRET: generateKey(),
    STORE_URL: 'sqlite::memory:',
    ...PERMISSIVE_ENV,
  });
  const inner = createSyntheticFeed({ instruments: config.instruments, seed: 1 });
  let gate: Promise<void> = Promise.resolve();
  return {
    instruments: inner.instruments,
    async next(now: number) {
      await gate;
      return inner.next(now);
    },
    hold() {
      let open!: () => void;
      gate = new Promise((resolve) => (open = resolve));
      return open;
    },
  };
}

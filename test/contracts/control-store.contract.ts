/**
 * Contract for ControlStore adapters (src/ports/control-store.ts). Every adapter runs this suite so
 * the API and the trading process see identical control semantics whatever the backend.
 *
 * The port only compares and writes; the rules are applied by src/application/control-transition.ts,
 * which this suite drives, so it pins down the adapter and the use case together.
 * What the suite pins down beyond the port's doc comments (adapters must agree on these bytes):
 * - `applyControl` appends one audit event of kind `control`, at = who.at, symbol null, body
 *   {event: <event type>, reason, outcome, from, to, epoch: <epoch after the call>, actor: who.actor}.
 * - a change stores reason = event.reason and changed_at = who.at.
 * - `resetKill` (application) appends kind `kill_reset`, at = who.at, symbol null, body
 *   {reason, from: 'killed', to: 'running', epoch: <new epoch>, actor: who.actor}; not killed → no event.
 * The transition rule itself is always taken from decideControl, never restated here.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { decideControl } from '../../machines/control.machine.js';
import { SYSTEM_STATES } from '../../src/domain/control.js';
import type {
  ControlActor,
  ControlEvent,
  ControlEventType,
  ControlRecord,
  SystemState,
} from '../../src/domain/control.js';
import type { Store } from '../../src/ports/store.js';
import { isoAt, readAll, seededRandom, storeHarness } from './support.js';
import type { StoreFactory } from './support.js';
import { applyControl, resetKill } from '../../src/application/control-transition.js';

const EVENT_TYPES: readonly ControlEventType[] = ['control.pause', 'control.resume', 'control.kill'];

function ev(type: ControlEventType, reason = `${type} reason`): ControlEvent {
  return { type, reason };
}

function actor(name: string, seconds: number): ControlActor {
  return { actor: name, at: isoAt(seconds) };
}

/** Drives a fresh store into `state` using only legal moves. */
async function driveTo(store: Store, state: SystemState): Promise<void> {
  if (state === 'paused') await applyControl(store.control, ev('control.pause', 'setup'), actor('setup', 1));
  if (state === 'killed') await applyControl(store.control, ev('control.kill', 'setup'), actor('setup', 1));
  expect((await store.control.read()).state).toBe(state);
}

export function controlStoreContract(name: string, open: StoreFactory, openSecond: StoreFactory): void {
  describe(`ControlStore contract: ${name}`, () => {
    const stores = storeHarness(open, openSecond);

    it('reads the initial record (running, epoch 0) on a fresh backend, from both connections', async () => {
      const [a, b] = await stores.two();
      const record = await a.control.read();
      expect(record).toEqual({
        state: 'running',
        epoch: 0,
        reason: null,
        changed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown as string,
        store_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown as string,
        adopted_from: null,
        // The MAC its creator asked for (test/support/stores.ts), kept by the store as given.
        mac: expect.stringMatching(/^hmac:[0-9a-f]{64}$/) as unknown as string,
      });
      // Stamped with the store's creation, not 1970.
      expect(Date.parse(record.changed_at)).toBeGreaterThan(Date.parse('2020-01-01'));
      expect(await b.control.read()).toEqual(record);
      expect(await a.events.count()).toBe(0);
    });

    it('keeps the MAC written with each record, and none for a record written without one', async () => {
      const [a, b] = await stores.two();
      const first = await a.control.read();
      const { mac: _mac, ...bare } = first;
      const paused = { ...bare, state: 'paused' as const, epoch: 1, reason: 'r', mac: `hmac:${'1'.repeat(64)}` };
      const audit = { kind: 'control', at: isoAt(1), symbol: null, body: {} };
      const cas = { expectedEpoch: 0, expectedStoreId: first.store_id, audit };
      expect(await a.control.compareAndSet({ ...cas, next: paused })).toEqual({ written: true });
      expect(await b.control.read()).toEqual(paused);
      const { mac: _paused, ...unsigned } = { ...paused, epoch: 2 };
      await a.control.compareAndSet({ ...cas, expectedEpoch: 1, next: unsigned });
      expect(await b.control.read()).toEqual(unsigned);
      const adopted = {
        ...unsigned,
        epoch: 3,
        store_id: randomUUID(),
        adopted_from: first.store_id,
        mac: `hmac:${'2'.repeat(64)}`,
      };
      await a.control.adopt(adopted, { ...audit, kind: 'store_adopted' });
      expect(await b.control.read()).toEqual(adopted);
    });

    const cases = SYSTEM_STATES.flatMap((state) => EVENT_TYPES.map((type) => [state, type] as const));
    it.each(cases)('from %s, %s matches decideControl and is audited', async (state, type) => {
      const store = await stores.one();
      await driveTo(store, state);
      const before = await store.control.read();
      const eventsBefore = await store.events.count();
      const event = ev(type, `why ${type}`);
      const who = actor('key-abc', 100);

      const result = await applyControl(store.control, event, who);
      const expected = decideControl(state, event);

      expect({ outcome: result.outcome, from: result.from, to: result.to }).toEqual(expected);
      expect(result.event).toEqual(event);
      const after = await store.control.read();
      expect(result.record).toEqual(after);
      if (expected.outcome === 'changed') {
        expect(after).toEqual({
          ...before,
          state: expected.to,
          epoch: before.epoch + 1,
          reason: event.reason,
          changed_at: who.at,
        });
      } else {
        expect(after).toEqual(before);
      }

      expect(await store.events.count()).toBe(eventsBefore + 1);
      const [audit] = await store.events.query({ limit: 1 });
      expect(audit).toBeDefined();
      expect(audit?.kind).toBe('control');
      expect(audit?.at).toBe(who.at);
      expect(audit?.symbol).toBeNull();
      expect(audit?.body).toEqual({
        event: type,
        reason: event.reason,
        outcome: expected.outcome,
        from: expected.from,
        to: expected.to,
        epoch: after.epoch,
        actor: who.actor,
      });
    });

    it('a change increments the epoch by exactly one each time and stores reason and changed_at', async () => {
      const store = await stores.one();
      const r1 = await applyControl(store.control, ev('control.pause', 'lunch'), actor('k1', 10));
      const r2 = await applyControl(store.control, ev('control.resume', 'back'), actor('k2', 20));
      const r3 = await applyControl(store.control, ev('control.pause', 'again'), actor('k1', 30));
      expect([r1.record.epoch, r2.record.epoch, r3.record.epoch]).toEqual([1, 2, 3]);
      expect(await store.control.read()).toMatchObject({
        state: 'paused',
        epoch: 3,
        reason: 'again',
        changed_at: isoAt(30),
      });
      const audit = await store.events.query({ kind: 'control', limit: 10 });
      expect(audit.map((e) => e.body.epoch)).toEqual([3, 2, 1]);
      expect((await store.events.verify()).ok).toBe(true);
    });

    it('unchanged and refused outcomes keep the epoch but are still audited', async () => {
      const store = await stores.one();
      const initial = await store.control.read();
      const unchanged = await applyControl(store.control, ev('control.resume', 'already running'), actor('k', 5));
      expect(unchanged.outcome).toBe('unchanged');
      expect(await store.control.read()).toEqual(initial);
      await applyControl(store.control, ev('control.kill', 'stop'), actor('k', 6));
      const refused = await applyControl(store.control, ev('control.resume', 'try'), actor('k', 7));
      expect(refused.outcome).toBe('refused');
      expect(refused.record.epoch).toBe(1);
      const audit = await store.events.query({ kind: 'control', limit: 10 });
      expect(audit.map((e) => e.body.outcome)).toEqual(['refused', 'changed', 'unchanged']);
    });

    it('killed cannot be left through apply', async () => {
      const store = await stores.one();
      await applyControl(store.control, ev('control.kill', 'boom'), actor('k', 1));
      const killed = await store.control.read();
      for (const type of [...EVENT_TYPES, ...EVENT_TYPES]) {
        const result = await applyControl(store.control, ev(type), actor('k', 2));
        expect(result.outcome).not.toBe('changed');
        expect(result.to).toBe('killed');
      }
      expect(await store.control.read()).toEqual(killed);
    });

    it('resetKill takes killed to running with epoch + 1 and a kill_reset event', async () => {
      const store = await stores.one();
      await applyControl(store.control, ev('control.pause', 'p'), actor('k', 1));
      await applyControl(store.control, ev('control.kill', 'k'), actor('k', 2));
      const countBefore = await store.events.count();
      const who = actor('operator-cli', 50);

      const record = await resetKill(store.control, who, 'incident closed');

      expect(record).toMatchObject({ state: 'running', epoch: 3, reason: 'incident closed', changed_at: who.at });
      expect(await store.control.read()).toEqual(record);
      expect(await store.events.count()).toBe(countBefore + 1);
      const [reset] = await store.events.query({ limit: 1 });
      expect(reset?.kind).toBe('kill_reset');
      expect(reset?.at).toBe(who.at);
      expect(reset?.symbol).toBeNull();
      expect(reset?.body).toEqual({
        reason: 'incident closed',
        from: 'killed',
        to: 'running',
        epoch: 3,
        actor: 'operator-cli',
      });
      // Back to normal: the statechart applies again.
      expect((await applyControl(store.control, ev('control.pause'), actor('k', 60))).outcome).toBe('changed');
      expect((await store.events.verify()).ok).toBe(true);
    });

    it.each(['running', 'paused'] as const)('resetKill is a no-op when %s', async (state) => {
      const store = await stores.one();
      await driveTo(store, state);
      const before = await store.control.read();
      const countBefore = await store.events.count();
      expect(await resetKill(store.control, actor('operator', 9), 'nothing to reset')).toEqual(before);
      expect(await store.control.read()).toEqual(before);
      expect(await store.events.count()).toBe(countBefore);
    });

    it('compareAndSet refuses a stale epoch: nothing is written, nothing audited, the current record returned', async () => {
      const [a, b] = await stores.two();
      await applyControl(a.control, ev('control.pause', 'first'), actor('k', 1));
      const current = await a.control.read();
      const events = await a.events.count();
      const stale = await b.control.compareAndSet({
        expectedEpoch: current.epoch - 1,
        expectedStoreId: current.store_id,
        next: {
          ...current,
          state: 'running',
          epoch: current.epoch,
          reason: 'decided on an old record',
          changed_at: isoAt(2),
        },
        audit: { kind: 'control', at: isoAt(2), symbol: null, body: { event: 'control.resume' } },
      });
      expect(stale).toEqual({ written: false, current });
      expect(await a.control.read()).toEqual(current);
      expect(await a.events.count()).toBe(events);
    });

    it('compareAndSet with next null appends the audit entry and leaves the record as it is', async () => {
      const store = await stores.one();
      const before = await store.control.read();
      const written = await store.control.compareAndSet({
        expectedEpoch: before.epoch,
        expectedStoreId: before.store_id,
        next: null,
        audit: { kind: 'control', at: isoAt(3), symbol: null, body: { event: 'control.resume', outcome: 'unchanged' } },
      });
      expect(written).toEqual({ written: true });
      expect(await store.control.read()).toEqual(before);
      const [entry] = await readAll(store.events);
      expect(entry?.body).toEqual({ event: 'control.resume', outcome: 'unchanged' });
    });

    it('notifies a subscriber on the same connection after a change', async () => {
      const store = await stores.one();
      const seen: ControlRecord[] = [];
      const unsubscribe = await store.control.subscribe((record) => seen.push(record));
      await applyControl(store.control, ev('control.pause', 'local'), actor('k', 1));
      await vi.waitFor(() => expect(seen.some((r) => r.epoch === 1 && r.state === 'paused')).toBe(true), {
        timeout: 2000,
        interval: 5,
      });
      await unsubscribe();
    });

    it('notifies a subscriber on the second connection of a change made on the first', async () => {
      const [a, b] = await stores.two();
      const seen: ControlRecord[] = [];
      const unsubscribe = await b.control.subscribe((record) => seen.push(record));
      await applyControl(a.control, ev('control.pause', 'remote'), actor('k', 1));
      await vi.waitFor(
        () =>
          expect(seen).toContainEqual(
            expect.objectContaining({ state: 'paused', epoch: 1, reason: 'remote', changed_at: isoAt(1) }),
          ),
        {
          timeout: 2000,
          interval: 5,
        },
      );
      await applyControl(a.control, ev('control.kill', 'remote kill'), actor('k', 2));
      await vi.waitFor(() => expect(seen.some((r) => r.epoch === 2 && r.state === 'killed')).toBe(true), {
        timeout: 2000,
        interval: 5,
      });
      await resetKill(a.control, actor('operator', 3), 'reset');
      await vi.waitFor(() => expect(seen.some((r) => r.epoch === 3 && r.state === 'running')).toBe(true), {
        timeout: 2000,
        interval: 5,
      });
      // Epochs only move forward for a subscriber.
      const epochs = seen.map((r) => r.epoch);
      expect(epochs).toEqual([...epochs].sort((x, y) => x - y));
      await unsubscribe();
    });

    it('stops notifying after unsubscribe', async () => {
      const [a, b] = await stores.two();
      const seen: ControlRecord[] = [];
      const witnessed: ControlRecord[] = [];
      const unsubscribe = await b.control.subscribe((record) => seen.push(record));
      // Stays subscribed on the same connection: once it has the next change, the first would have too.
      const stopWitness = await b.control.subscribe((record) => witnessed.push(record));
      await applyControl(a.control, ev('control.pause'), actor('k', 1));
      await vi.waitFor(() => expect(seen.length).toBeGreaterThan(0), { timeout: 2000, interval: 5 });
      await unsubscribe();
      const count = seen.length;
      await applyControl(a.control, ev('control.resume'), actor('k', 2));
      await vi.waitFor(() => expect(witnessed.map((r) => r.state)).toContain('running'), {
        timeout: 2000,
        interval: 5,
      });
      expect(seen.length).toBe(count);
      await stopWitness();
    });

    it('stays consistent under ~200 interleaved applies from both connections', async () => {
      const [a, b] = await stores.two();
      const random = seededRandom(0x5eed);
      const N = 200;
      const calls: Array<{ store: Store; event: ControlEvent; who: ControlActor }> = [];
      for (let i = 0; i < N; i++) {
        const r = random();
        // Kills only in the last stretch, so most of the run is contended pause/resume before the latch.
        const killChance = i < 140 ? 0 : 0.06;
        const type: ControlEventType =
          r < killChance ? 'control.kill' : r < (1 + killChance) / 2 ? 'control.pause' : 'control.resume';
        calls.push({ store: random() < 0.5 ? a : b, event: ev(type, `r${i}`), who: actor(`c${i}`, i) });
      }
      expect(calls.some((c) => c.event.type === 'control.kill')).toBe(true);
      const results = await Promise.all(calls.map((c) => applyControl(c.store.control, c.event, c.who)));

      const changed = results.filter((r) => r.outcome === 'changed').length;
      const final = await a.control.read();
      expect(final.epoch).toBe(changed);
      expect(await b.control.read()).toEqual(final);
      for (const r of results)
        expect({ outcome: r.outcome, from: r.from, to: r.to }).toEqual(decideControl(r.from, r.event));

      // Replay the audit trail in seq order: it must be a legal walk of the statechart.
      const audit = (await readAll(a.events, { kind: 'control' })).reverse();
      expect(audit).toHaveLength(N);
      let state: SystemState = 'running';
      let epoch = 0;
      let killedSeen = false;
      for (const entry of audit) {
        const body = entry.body as {
          event: ControlEventType;
          reason: string;
          outcome: string;
          from: SystemState;
          to: SystemState;
          epoch: number;
        };
        expect(body.from).toBe(state);
        const decision = decideControl(state, ev(body.event, body.reason));
        expect({ outcome: body.outcome, from: body.from, to: body.to }).toEqual(decision);
        if (decision.outcome === 'changed') epoch += 1;
        expect(body.epoch).toBe(epoch);
        if (killedSeen) expect([body.from, body.to]).toEqual(['killed', 'killed']);
        if (body.to === 'killed') killedSeen = true;
        state = decision.to;
      }
      expect(state).toBe(final.state);
      expect(epoch).toBe(final.epoch);
      if (results.some((r) => r.event.type === 'control.kill')) expect(final.state).toBe('killed');
      // A returned record never shows running once the first kill has been applied.
      const firstKillEpoch = Math.min(
        ...results.filter((r) => r.to === 'killed' && r.outcome === 'changed').map((r) => r.record.epoch),
      );
      for (const r of results) if (r.record.epoch >= firstKillEpoch) expect(r.record.state).toBe('killed');

      const verification = await b.events.verify();
      expect(verification).toMatchObject({ ok: true, count: N });
    });
  });
}

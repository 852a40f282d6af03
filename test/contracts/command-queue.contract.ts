/**
 * Contract for CommandQueue adapters (src/ports/command-queue.ts): idempotent enqueue, oldest-first
 * leased claims with an injected clock, idempotent completion, and cross-process wake-ups. Leases are
 * checked only well inside or well past their window, so adapters may pick either boundary rule.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Command, CommandRecord } from '../../src/domain/commands.js';
import { CommandQueueFullError } from '../../src/ports/command-queue.js';
import { cancelPayload, deleveragePayload, killCancelsPayload } from '../support/commands.js';
import { isoAt, readAll, storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

const NOW = Date.UTC(2024, 0, 1, 12);
const LEASE = 30_000;

function command(id: string, seconds: number, payload = cancelPayload(['BTC-USD'])): Command {
  return { id, type: 'cancel_all', payload, enqueued_at: isoAt(seconds) };
}

export function commandQueueContract(name: string, open: StoreFactory, openSecond: StoreFactory): void {
  describe(`CommandQueue contract: ${name}`, () => {
    const stores = storeHarness(open, openSecond);

    it('enqueue stores a pending record and get returns it; get is null for an unknown id', async () => {
      const store = await stores.one();
      const cmd: Command = {
        id: 'cmd-1',
        type: 'deleverage',
        payload: deleveragePayload('ETH-USD', 0.5, 2.5),
        enqueued_at: isoAt(1),
      };
      const { record, duplicate } = await store.commands.enqueue(cmd);
      const expected: CommandRecord = { ...cmd, status: 'pending', attempts: 0, result: null, completed_at: null };
      expect(duplicate).toBe(false);
      expect(record).toEqual(expected);
      expect(await store.commands.get('cmd-1')).toEqual(expected);
      expect(await store.commands.get('missing')).toBeNull();
    });

    it("enqueue refuses a payload that is not its type's schema, and stores nothing", async () => {
      const store = await stores.one();
      const bad = [
        { id: 'b1', type: 'cancel_all', payload: { symbols: ['BTC-USD'] } },
        { id: 'b2', type: 'deleverage', payload: { ...deleveragePayload('ETH-USD', 0.5), reduce_pct: 1.5 } },
        { id: 'b3', type: 'kill_cancels', payload: cancelPayload() }, // no reason
        { id: 'b4', type: 'flatten', payload: cancelPayload() },
      ];
      for (const b of bad) {
        const cmd = { ...b, enqueued_at: isoAt(1) } as unknown as Command;
        await expect(store.commands.enqueue(cmd), b.id).rejects.toThrow(/refused to queue/);
        expect(await store.commands.get(b.id)).toBeNull();
      }
      expect(await store.commands.claim('worker', { max: 10, leaseMs: LEASE, now: NOW })).toEqual([]);
    });

    it('enqueue is idempotent by id: a duplicate changes nothing', async () => {
      const [a, b] = await stores.two();
      const original = command('dup', 1, cancelPayload(['BTC-USD']));
      const first = await a.commands.enqueue(original);
      const again = await b.commands.enqueue({
        id: 'dup',
        type: 'kill_cancels',
        payload: killCancelsPayload(['ETH-USD']),
        enqueued_at: isoAt(9),
      });
      expect(again.duplicate).toBe(true);
      expect(again.record).toEqual(first.record);
      expect(await a.commands.get('dup')).toEqual(first.record);
      // A duplicate of a claimed command does not reset its claim either.
      await a.commands.claim('worker', { max: 10, leaseMs: LEASE, now: NOW });
      const claimed = await a.commands.get('dup');
      expect((await a.commands.enqueue(original)).record).toEqual(claimed);
      expect(await a.commands.claim('worker', { max: 10, leaseMs: LEASE, now: NOW + 1 })).toEqual([]);
    });

    it('claim hands out the oldest first, at most max, marking them claimed with attempts + 1', async () => {
      const store = await stores.one();
      for (const [id, s] of [
        ['c1', 1],
        ['c2', 2],
        ['c3', 3],
        ['c4', 4],
      ] as const)
        await store.commands.enqueue(command(id, s));
      const first = await store.commands.claim('worker', { max: 2, leaseMs: LEASE, now: NOW });
      expect(first.map((c) => c.id)).toEqual(['c1', 'c2']);
      for (const c of first) {
        expect(c).toMatchObject({ status: 'claimed', attempts: 1, result: null, completed_at: null });
        expect(await store.commands.get(c.id)).toEqual(c);
      }
      const second = await store.commands.claim('worker', { max: 10, leaseMs: LEASE, now: NOW + 1 });
      expect(second.map((c) => c.id)).toEqual(['c3', 'c4']);
      expect(await store.commands.claim('worker', { max: 10, leaseMs: LEASE, now: NOW + 2 })).toEqual([]);
      expect((await store.commands.get('c3'))?.status).toBe('claimed');
    });

    it("the kill's cancels are handed out before every other pending command, however many wait", async () => {
      const store = await stores.one();
      for (let i = 0; i < 60; i++) await store.commands.enqueue(command(`flood-${i}`, i));
      await store.commands.enqueue({
        id: 'kill',
        type: 'kill_cancels',
        payload: killCancelsPayload(['BTC-USD']),
        enqueued_at: isoAt(100),
      });
      await store.commands.enqueue(command('after', 101));
      await store.commands.enqueue({
        id: 'kill-2',
        type: 'kill_cancels',
        payload: killCancelsPayload(['ETH-USD']),
        enqueued_at: isoAt(102),
      });
      const first = await store.commands.claim('w', { max: 3, leaseMs: LEASE, now: NOW });
      expect(first.map((c) => c.id)).toEqual(['kill', 'kill-2', 'flood-0']);
      // Expired claims of the kill's cancels go first again too, in their own enqueue order.
      const again = await store.commands.claim('w', { max: 3, leaseMs: LEASE, now: NOW + LEASE + 1000 });
      expect(again.map((c) => c.id)).toEqual(['kill', 'kill-2', 'flood-0']);
    });

    it('a bounded enqueue refuses past maxOpen open commands, storing nothing; the kill and a repeat are never refused', async () => {
      const [a, b] = await stores.two();
      await a.commands.enqueue(command('o1', 1), { maxOpen: 2 });
      await a.commands.enqueue(command('o2', 2), { maxOpen: 2 });
      // Claimed commands are still open: they count.
      await a.commands.claim('w', { max: 1, leaseMs: LEASE, now: NOW });
      await expect(b.commands.enqueue(command('o3', 3), { maxOpen: 2 })).rejects.toThrow(CommandQueueFullError);
      expect(await a.commands.get('o3')).toBeNull();
      // The same id again is the command already there, not a new one.
      expect((await b.commands.enqueue(command('o2', 2), { maxOpen: 2 })).duplicate).toBe(true);
      const kill = { id: 'k', type: 'kill_cancels', payload: killCancelsPayload(), enqueued_at: isoAt(4) } as const;
      expect((await b.commands.enqueue(kill, { maxOpen: 2 })).duplicate).toBe(false);
      // A done command no longer counts.
      await a.commands.complete('o1', { status: 'done' }, isoAt(5));
      await a.commands.complete('k', { status: 'done' }, isoAt(5));
      expect((await b.commands.enqueue(command('o3', 3), { maxOpen: 2 })).duplicate).toBe(false);
    });

    it('a claimed command is handed out again only after its lease expires', async () => {
      const store = await stores.one();
      await store.commands.enqueue(command('lease', 1));
      expect(await store.commands.claim('w1', { max: 5, leaseMs: LEASE, now: NOW })).toHaveLength(1);
      expect(await store.commands.claim('w2', { max: 5, leaseMs: LEASE, now: NOW + LEASE - 1000 })).toEqual([]);
      const reclaimed = await store.commands.claim('w2', { max: 5, leaseMs: LEASE, now: NOW + LEASE + 1000 });
      expect(reclaimed.map((c) => [c.id, c.status, c.attempts])).toEqual([['lease', 'claimed', 2]]);
      // The new lease runs from the re-claim, not from the first claim.
      expect(await store.commands.claim('w3', { max: 5, leaseMs: LEASE, now: NOW + LEASE + 2000 })).toEqual([]);
      expect(await store.commands.claim('w3', { max: 5, leaseMs: LEASE, now: NOW + 2 * LEASE + 2000 })).toHaveLength(1);
    });

    it('an expired claim is handed out before younger pending commands (oldest first)', async () => {
      const store = await stores.one();
      await store.commands.enqueue(command('old', 1));
      await store.commands.claim('w1', { max: 1, leaseMs: LEASE, now: NOW });
      await store.commands.enqueue(command('young', 2));
      const got = await store.commands.claim('w2', { max: 1, leaseMs: LEASE, now: NOW + LEASE + 1000 });
      expect(got.map((c) => c.id)).toEqual(['old']);
    });

    it('complete stores the result and marks done; a second complete is a no-op; done is never claimed', async () => {
      const [a, b] = await stores.two();
      await a.commands.enqueue(command('job', 1));
      await a.commands.claim('w', { max: 1, leaseMs: LEASE, now: NOW });
      const done = await a.commands.complete('job', { cancelled: 3, symbols: ['BTC-USD'] }, isoAt(10));
      expect(done).toMatchObject({
        id: 'job',
        status: 'done',
        attempts: 1,
        result: { cancelled: 3, symbols: ['BTC-USD'] },
        completed_at: isoAt(10),
      });
      expect(await b.commands.get('job')).toEqual(done);
      const again = await b.commands.complete('job', { cancelled: 99 }, isoAt(20));
      expect(again).toEqual(done);
      expect(await a.commands.get('job')).toEqual(done);
      expect(await a.commands.claim('w', { max: 10, leaseMs: LEASE, now: NOW + 10 * LEASE })).toEqual([]);
    });

    it('completeWithEntry marks done and appends its entry, chained with other writers; once only', async () => {
      const [a, b] = await stores.two();
      await a.commands.enqueue(command('rec', 1));
      await a.commands.claim('w', { max: 1, leaseMs: LEASE, now: NOW });
      // Another process extends the chain first: the entry is chained after it, not over it.
      await b.events.append({ kind: 'control', at: isoAt(5), body: { n: 1 } });
      const entry = { kind: 'command_executed', at: isoAt(10), symbol: null, body: { command_id: 'rec', n: 1 } };
      const first = await a.commands.completeWithEntry('rec', { status: 'done' }, isoAt(10), entry);
      expect(first.record).toMatchObject({
        id: 'rec',
        status: 'done',
        result: { status: 'done' },
        completed_at: isoAt(10),
      });
      expect(first.entry).toMatchObject({ seq: 2, kind: 'command_executed', body: { command_id: 'rec', n: 1 } });
      await b.events.append({ kind: 'control', at: isoAt(11), body: { n: 2 } });
      // Done already (another delivery of the same command): nothing changes, nothing is appended.
      const again = await b.commands.completeWithEntry('rec', { status: 'other' }, isoAt(20), {
        ...entry,
        body: { n: 2 },
      });
      expect(again).toEqual({ record: first.record, entry: null });
      const trail = await readAll(a.events);
      expect(trail.map((e) => [e.seq, e.kind])).toEqual([
        [3, 'control'],
        [2, 'command_executed'],
        [1, 'control'],
      ]);
      expect(await a.events.verify()).toMatchObject({ ok: true, count: 3 });
      expect(await a.commands.claim('w', { max: 10, leaseMs: LEASE, now: NOW + 10 * LEASE })).toEqual([]);
    });

    it('completedIds lists the done commands only, whichever way they were completed', async () => {
      const [a, b] = await stores.two();
      expect(await a.commands.completedIds()).toEqual([]);
      for (const [id, s] of [
        ['one', 1],
        ['two', 2],
        ['three', 3],
      ] as const)
        await a.commands.enqueue(command(id, s));
      await a.commands.claim('w', { max: 1, leaseMs: LEASE, now: NOW });
      await a.commands.complete('one', { status: 'done' }, isoAt(4));
      const entry = { kind: 'command_executed', at: isoAt(5), body: { command_id: 'three' } };
      await b.commands.completeWithEntry('three', { status: 'done' }, isoAt(5), entry);
      expect((await b.commands.completedIds()).sort()).toEqual(['one', 'three']);
    });

    it('completeWithEntry of an unknown id is refused and appends nothing', async () => {
      const store = await stores.one();
      const entry = { kind: 'command_executed', at: isoAt(1), body: { command_id: 'nope' } };
      await expect(store.commands.completeWithEntry('nope', { status: 'done' }, isoAt(1), entry)).rejects.toThrow(
        /unknown command/,
      );
      expect(await store.events.count()).toBe(0);
    });

    it('a pending command can be completed without a claim and is then never handed out', async () => {
      const store = await stores.one();
      await store.commands.enqueue(command('direct', 1));
      const done = await store.commands.complete('direct', { ok: true }, isoAt(2));
      expect(done).toMatchObject({ status: 'done', attempts: 0, result: { ok: true }, completed_at: isoAt(2) });
      expect(await store.commands.claim('w', { max: 10, leaseMs: LEASE, now: NOW })).toEqual([]);
    });

    it('notifies a subscriber on the second connection of an enqueue on the first', async () => {
      const [a, b] = await stores.two();
      let calls = 0;
      let witness = 0;
      const unsubscribe = await b.commands.subscribe(() => {
        calls += 1;
      });
      // A second subscriber on the same connection stays: once it has heard of the next enqueue, the
      // first one would have too, had it still been subscribed.
      const stopWitness = await b.commands.subscribe(() => {
        witness += 1;
      });
      await a.commands.enqueue(command('wake', 1));
      await vi.waitFor(() => expect(calls).toBeGreaterThan(0), { timeout: 2000, interval: 5 });
      await vi.waitFor(() => expect(witness).toBe(calls), { timeout: 2000, interval: 5 });
      await unsubscribe();
      const after = calls;
      const witnessed = witness;
      await a.commands.enqueue(command('quiet', 2));
      await vi.waitFor(() => expect(witness).toBeGreaterThan(witnessed), { timeout: 2000, interval: 5 });
      expect(calls).toBe(after);
      await stopWitness();
    });

    it('notifies a subscriber on the same connection of a local enqueue', async () => {
      const store = await stores.one();
      let calls = 0;
      const unsubscribe = await store.commands.subscribe(() => {
        calls += 1;
      });
      await store.commands.enqueue(command('local', 1));
      await vi.waitFor(() => expect(calls).toBeGreaterThan(0), { timeout: 2000, interval: 5 });
      await unsubscribe();
    });

    it('two consumers claiming in parallel never get the same command within a lease', async () => {
      const [a, b] = await stores.two();
      const total = 40;
      for (let i = 0; i < total; i++) await a.commands.enqueue(command(`p${String(i).padStart(2, '0')}`, i));
      const rounds = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          (i % 2 === 0 ? a : b).commands.claim(`consumer-${i % 2}`, { max: 3, leaseMs: LEASE, now: NOW + i }),
        ),
      );
      const ids = rounds.flat().map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(total);
      for (const c of rounds.flat()) expect(c.attempts).toBe(1);
    });
  });
}

/**
 * Contract for EventStore adapters (src/ports/event-store.ts): gapless seq, the sha256 hash chain
 * from src/domain/hash-chain.ts, filtered newest-first queries, and tamper detection. Tampering needs
 * a backdoor no production code should have, so each adapter's test file supplies it as a hook.
 */
import { describe, expect, it } from 'vitest';
import { chainHash, GENESIS_HASH } from '../../src/domain/hash-chain.js';
import type { AuditEvent, EventQuery, NewAuditEvent } from '../../src/ports/event-store.js';
import type { Store } from '../../src/ports/store.js';
import { isoAt, storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

/** Test-only escape hatches an adapter's test file provides (they bypass the port on purpose). */
export interface EventStoreTestHooks {
  /** Overwrites the stored body of entry `seq` without touching its hashes. */
  tamper(store: Store, seq: number, newBody: Record<string, unknown>): Promise<void>;
}

const KINDS = ['decision', 'control', 'command_executed'] as const;
const SYMBOLS = ['BTC-USD', 'ETH-USD', null] as const;

/** A deterministic mix of kinds, symbols and times (two entries share each second, on purpose). */
function sample(count: number): NewAuditEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: KINDS[i % KINDS.length] ?? 'decision',
    at: isoAt(Math.floor(i / 2)),
    symbol: SYMBOLS[i % SYMBOLS.length] ?? null,
    body: { i, nested: { z: [1, 'two', { b: true, a: null }], a: `entry ${i}` } },
  }));
}

/** The reference semantics of EventQuery, applied to what was appended. */
function expectedQuery(all: readonly AuditEvent[], q: EventQuery): AuditEvent[] {
  return all
    .filter((e) => q.kind === undefined || e.kind === q.kind)
    .filter((e) => q.symbol === undefined || e.symbol === q.symbol)
    .filter((e) => q.before === undefined || e.seq < q.before)
    .filter((e) => q.since === undefined || e.at >= q.since)
    .filter((e) => q.until === undefined || e.at < q.until)
    .sort((x, y) => y.seq - x.seq)
    .slice(0, q.limit);
}

export function eventStoreContract(
  name: string,
  open: StoreFactory,
  openSecond: StoreFactory,
  hooks?: EventStoreTestHooks,
): void {
  describe(`EventStore contract: ${name}`, () => {
    const stores = storeHarness(open, openSecond);

    async function appendAll(store: Store, events: readonly NewAuditEvent[]): Promise<AuditEvent[]> {
      const out: AuditEvent[] = [];
      for (const e of events) out.push(await store.events.append(e));
      return out;
    }

    it('starts empty and verifies as an empty chain', async () => {
      const store = await stores.one();
      expect(await store.events.count()).toBe(0);
      expect(await store.events.query({ limit: 10 })).toEqual([]);
      expect(await store.events.verify()).toEqual({ ok: true, count: 0, head: GENESIS_HASH });
    });

    it('assigns seq 1..n and chains each hash to the previous one', async () => {
      const store = await stores.one();
      const input = sample(7);
      const appended = await appendAll(store, input);
      let prev = GENESIS_HASH;
      appended.forEach((e, i) => {
        const src = input[i];
        expect(e.seq).toBe(i + 1);
        expect(e.prev_hash).toBe(prev);
        expect(e).toMatchObject({ kind: src?.kind, at: src?.at, symbol: src?.symbol ?? null, body: src?.body });
        expect(e.hash).toBe(chainHash(prev, { seq: e.seq, at: e.at, kind: e.kind, symbol: e.symbol, body: e.body }));
        expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
        prev = e.hash;
      });
      expect(await store.events.count()).toBe(7);
      expect(await store.events.verify()).toEqual({ ok: true, count: 7, head: prev });
    });

    it('defaults a missing symbol to null and hashes bodies independently of key order', async () => {
      const store = await stores.one();
      const first = await store.events.append({ kind: 'decision', at: isoAt(1), body: { b: 1, a: { d: 2, c: 3 } } });
      expect(first.symbol).toBeNull();
      expect(first.hash).toBe(
        chainHash(GENESIS_HASH, {
          seq: 1,
          at: isoAt(1),
          kind: 'decision',
          symbol: null,
          body: { a: { c: 3, d: 2 }, b: 1 },
        }),
      );
      const [read] = await store.events.query({ limit: 1 });
      expect(read).toEqual(first);
    });

    it('query returns what append returned, newest first, and is visible from the second connection', async () => {
      const [a, b] = await stores.two();
      const appended = await appendAll(a, sample(5));
      const newestFirst = [...appended].reverse();
      expect(await a.events.query({ limit: 100 })).toEqual(newestFirst);
      expect(await b.events.query({ limit: 100 })).toEqual(newestFirst);
      expect(await b.events.count()).toBe(5);
    });

    it('filters by limit, before, kind, symbol, since, until and their combinations', async () => {
      const store = await stores.one();
      const all = await appendAll(store, sample(24));
      const queries: EventQuery[] = [
        { limit: 1 },
        { limit: 5 },
        { limit: 1000 },
        { limit: 5, before: 10 },
        { limit: 5, before: 1 },
        { limit: 100, before: 25 },
        { limit: 100, kind: 'control' },
        { limit: 2, kind: 'control' },
        { limit: 100, kind: 'nope' },
        { limit: 100, symbol: 'BTC-USD' },
        { limit: 100, symbol: 'DOGE-USD' },
        { limit: 100, kind: 'decision', symbol: 'BTC-USD' },
        { limit: 100, kind: 'control', symbol: 'ETH-USD' },
        { limit: 100, since: isoAt(5) },
        { limit: 100, until: isoAt(5) },
        { limit: 100, since: isoAt(3), until: isoAt(8) },
        { limit: 100, since: isoAt(3), until: isoAt(3) },
        { limit: 100, since: isoAt(100) },
        { limit: 3, kind: 'decision', since: isoAt(2), until: isoAt(11), before: 20 },
        { limit: 100, kind: 'command_executed', symbol: 'ETH-USD', since: isoAt(1), before: 22 },
        { limit: 100, symbol: 'BTC-USD', until: isoAt(6), before: 12 },
      ];
      for (const q of queries) {
        const got = await store.events.query(q);
        expect(got, JSON.stringify(q)).toEqual(expectedQuery(all, q));
      }
      // The reference filter must actually discriminate, or the loop above proves little.
      expect(expectedQuery(all, { limit: 100, since: isoAt(3), until: isoAt(8) })).toHaveLength(10);
      expect(expectedQuery(all, { limit: 100, kind: 'decision', symbol: 'BTC-USD' })).toHaveLength(8);
    });

    it('pages through everything with before without gaps or repeats', async () => {
      const store = await stores.one();
      await appendAll(store, sample(23));
      const seqs: number[] = [];
      let before: number | undefined;
      // Bounded: an adapter that ignored or mis-applied `before` must fail here, not hang.
      for (let pages = 0; pages < 10; pages++) {
        const page = await store.events.query({ limit: 5, ...(before === undefined ? {} : { before }) });
        if (page.length === 0) break;
        seqs.push(...page.map((e) => e.seq));
        before = page[page.length - 1]?.seq;
      }
      expect(seqs).toEqual(Array.from({ length: 23 }, (_, i) => 23 - i));
    });

    it('parallel appends from both connections give a gapless, verifying chain', async () => {
      const [a, b] = await stores.two();
      const input = sample(120);
      const appended = await Promise.all(input.map((e, i) => (i % 2 === 0 ? a : b).events.append(e)));
      expect(appended.map((e) => e.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      const stored = (await a.events.query({ limit: 1000 })).reverse();
      expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      let prev = GENESIS_HASH;
      for (const e of stored) {
        expect(e.prev_hash).toBe(prev);
        prev = e.hash;
      }
      // Every caller got back exactly the entry that was stored under its seq.
      const bySeq = new Map(stored.map((e) => [e.seq, e]));
      for (const e of appended) expect(bySeq.get(e.seq)).toEqual(e);
      expect(await b.events.verify()).toEqual({ ok: true, count: 120, head: prev });
      expect(await a.events.count()).toBe(120);
    });

    it('verify walks a long chain in steps, so the process it runs in keeps answering', async () => {
      // Found in review: on SQLite one synchronous pass over 100,000 entries held the API's event loop
      // for 4 s (a kill, /health and the API heartbeat all waited behind the console's chain check).
      const store = await stores.one();
      await appendAll(store, sample(3_000));
      let turns = 0;
      let counting = true;
      const count = () => {
        if (!counting) return;
        turns += 1;
        setImmediate(count);
      };
      setImmediate(count);
      const result = await store.events.verify();
      counting = false;
      expect(result).toMatchObject({ ok: true, count: 3_000 });
      expect(turns).toBeGreaterThanOrEqual(3);
    }, 30_000);

    it.each([1, 4, 6])('verify names seq %i when its stored body was tampered with', async (seq) => {
      if (hooks === undefined)
        throw new Error(`${name}: eventStoreContract needs a tamper hook to check tamper detection`);
      const store = await stores.one();
      await appendAll(store, sample(6));
      expect((await store.events.verify()).ok).toBe(true);
      await hooks.tamper(store, seq, { i: -1, forged: true });
      const result = await store.events.verify();
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.firstBad.seq).toBe(seq);
        expect(result.firstBad.reason).toEqual(expect.any(String));
        expect(result.firstBad.reason.length).toBeGreaterThan(0);
      }
    });
  });
}

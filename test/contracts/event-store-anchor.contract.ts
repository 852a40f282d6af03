/**
 * Contract for the anchored tail of the audit trail (issue 8, point 6): the chain head {seq, hash}
 * is stored with every entry in the same atomic step, so verify() notices entries deleted from the
 * end, an entry rewritten with a fresh hash, entries written behind the head's back, and a head that
 * was edited; and `at` is fixed inside that step, so seq order is time order even when two processes
 * append at once with clocks (or callers) that disagree. Tampering needs a backdoor no production
 * code has, so each adapter's test file supplies it as hooks.
 */
import { describe, expect, it } from 'vitest';
import { chainHash } from '../../src/domain/hash-chain.js';
import type { AuditEvent, ChainVerification, NewAuditEvent } from '../../src/ports/event-store.js';
import type { Store } from '../../src/ports/store.js';
import { isoAt, readAll, storeHarness } from './support.js';
import type { StoreFactory } from './support.js';

/** Test-only escape hatches (they write behind the adapter's back, as an attacker with access would). */
export interface ChainTamperHooks {
  /** Removes entry `seq` (and whatever indexes it), leaving the chain head alone. */
  deleteEntry(store: Store, seq: number): Promise<void>;
  /** Stores `entry` exactly as given (hashes included) under its seq, leaving the chain head alone. */
  writeEntry(store: Store, entry: AuditEvent): Promise<void>;
  /** Overwrites the hash recorded in the chain head. */
  setHeadHash(store: Store, hash: string): Promise<void>;
}

function entries(count: number): NewAuditEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: i % 2 === 0 ? 'decision' : 'control',
    at: isoAt(i),
    symbol: i % 3 === 0 ? 'BTC-USD' : null,
    body: { i },
  }));
}

/** `entry` with a new body and every hash recomputed, chained onto `prevHash`: a careful forgery. */
function forged(entry: AuditEvent, prevHash: string, body: Record<string, unknown>): AuditEvent {
  const fields = { seq: entry.seq, at: entry.at, kind: entry.kind, symbol: entry.symbol, body };
  return { ...fields, prev_hash: prevHash, hash: chainHash(prevHash, fields) };
}

function expectBroken(result: ChainVerification, seq: number, reason: RegExp): void {
  expect(result.ok, JSON.stringify(result)).toBe(false);
  if (!result.ok) {
    expect(result.firstBad.seq, result.firstBad.reason).toBe(seq);
    expect(result.firstBad.reason).toMatch(reason);
  }
}

export function eventStoreAnchorContract(
  name: string,
  open: StoreFactory,
  openSecond: StoreFactory,
  hooks: ChainTamperHooks,
): void {
  describe(`EventStore anchored tail and time order: ${name}`, () => {
    const stores = storeHarness(open, openSecond);

    /** A store holding six verified entries, oldest first. */
    async function sixEntries(): Promise<{ store: Store; appended: AuditEvent[] }> {
      const store = await stores.one();
      const appended: AuditEvent[] = [];
      for (const e of entries(6)) appended.push(await store.events.append(e));
      expect((await store.events.verify()).ok).toBe(true);
      return { store, appended };
    }

    it.each([1, 3])('verify names the first missing seq when the newest %i entries were deleted', async (n) => {
      const { store } = await sixEntries();
      for (let seq = 6; seq > 6 - n; seq--) await hooks.deleteEntry(store, seq);
      expectBroken(await store.events.verify(), 7 - n, /missing/);
    });

    it('verify names a deleted entry in the middle by its own seq', async () => {
      const { store } = await sixEntries();
      await hooks.deleteEntry(store, 3);
      expectBroken(await store.events.verify(), 3, /missing/);
    });

    it('verify catches the last entry rewritten with a recomputed hash (only the head can tell)', async () => {
      const { store, appended } = await sixEntries();
      const last = appended[5]!;
      await hooks.writeEntry(store, forged(last, last.prev_hash, { i: 5, forged: true }));
      expectBroken(await store.events.verify(), 6, /head/);
    });

    it('verify catches a middle entry rewritten and every later hash recomputed', async () => {
      const { store, appended } = await sixEntries();
      let prev = appended[1]!.hash;
      for (const entry of appended.slice(2)) {
        const rewritten = forged(entry, prev, { ...entry.body, rewritten: true });
        await hooks.writeEntry(store, rewritten);
        prev = rewritten.hash;
      }
      expectBroken(await store.events.verify(), 6, /head/);
    });

    it('verify catches an entry written beyond the chain head', async () => {
      const { store, appended } = await sixEntries();
      const last = appended[5]!;
      const extra = forged({ ...last, seq: 7, at: isoAt(7) }, last.hash, { smuggled: true });
      await hooks.writeEntry(store, extra);
      expectBroken(await store.events.verify(), 7, /beyond the chain head/);
    });

    it('verify catches a chain head that does not match the last entry', async () => {
      const { store } = await sixEntries();
      await hooks.setHeadHash(store, 'f'.repeat(64));
      expectBroken(await store.events.verify(), 6, /head/);
    });

    it("raises an `at` earlier than the previous entry's to that entry's, and returns the stored one", async () => {
      const store = await stores.one();
      expect((await store.events.append({ kind: 'decision', at: isoAt(10), body: { n: 1 } })).at).toBe(isoAt(10));
      const late = await store.events.append({ kind: 'decision', at: isoAt(5), body: { n: 2 } });
      expect(late.at).toBe(isoAt(10));
      expect((await store.events.append({ kind: 'decision', at: isoAt(20), body: { n: 3 } })).at).toBe(isoAt(20));
      const [, stored] = (await readAll(store.events)).reverse();
      expect(stored).toEqual(late);
      expect((await store.events.verify()).ok).toBe(true);
    });

    it("a control change's audit entry is kept in time order too", async () => {
      const store = await stores.one();
      await store.events.append({ kind: 'decision', at: isoAt(10), body: {} });
      const written = await store.control.compareAndSet({
        expectedEpoch: 0,
        expectedStoreId: (await store.control.read()).store_id,
        next: null,
        audit: { kind: 'control', at: isoAt(1), body: { accepted: true } },
      });
      expect(written).toEqual({ written: true });
      const [newest] = await store.events.query({ limit: 1 });
      expect(newest).toMatchObject({ seq: 2, kind: 'control', at: isoAt(10) });
      expect((await store.events.verify()).ok).toBe(true);
    });

    it('two connections appending at once with out-of-order times store non-decreasing `at`', async () => {
      const [a, b] = await stores.two();
      const perConnection = 60;
      // a's callers go back in time, b's go forward: interleaved, the provided times disagree with seq order.
      const fromA = Array.from({ length: perConnection }, (_, i) => ({
        kind: 'decision',
        at: isoAt(1000 - i),
        body: { a: i },
      }));
      const fromB = Array.from({ length: perConnection }, (_, i) => ({
        kind: 'decision',
        at: isoAt(i),
        body: { b: i },
      }));
      const appended = await Promise.all(fromA.flatMap((e, i) => [a.events.append(e), b.events.append(fromB[i]!)]));
      const provided = fromA.flatMap((e, i) => [e.at, fromB[i]!.at]);
      const stored = (await readAll(b.events)).reverse();
      expect(stored.map((e) => e.seq)).toEqual(Array.from({ length: 2 * perConnection }, (_, i) => i + 1));
      // The callers' times, in the order the entries landed, must go backwards somewhere, or this
      // run never exercised the ordering it claims to check.
      const providedInSeqOrder = stored.map((e) => provided[appended.findIndex((x) => x.seq === e.seq)]!);
      expect(providedInSeqOrder.some((at, i) => i > 0 && at < providedInSeqOrder[i - 1]!)).toBe(true);
      for (let i = 1; i < stored.length; i++) {
        expect(Date.parse(stored[i]!.at), `seq ${i + 1}`).toBeGreaterThanOrEqual(Date.parse(stored[i - 1]!.at));
      }
      const bySeq = new Map(stored.map((e) => [e.seq, e]));
      appended.forEach((e, i) => {
        expect(bySeq.get(e.seq)).toEqual(e);
        // Raised, never lowered: an entry is never stamped before the time its caller gave.
        expect(Date.parse(e.at)).toBeGreaterThanOrEqual(Date.parse(provided[i]!));
      });
      expect((await a.events.verify()).ok).toBe(true);
    });
  });
}

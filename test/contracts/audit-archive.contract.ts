/**
 * Contract for the audit archive (issue 35), run on every adapter (file: and postgres:): entries
 * round-trip exactly, writing is idempotent (but an entry held under another hash is refused) and
 * refuses what does not follow the head, the head
 * survives a reopen, and verify() walks the archive as one chain and names a deleted segment or a
 * deleted entry (also incrementally, after a verification remembered the head). query() pages it
 * newest first with the event store's filters, up to a given seq; opened read-only it reads what was
 * written and creates nothing (an archive not there is an error, never made empty).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NO_FLOOR } from '../../src/domain/chain-walk.js';
import { chainHash, GENESIS_HASH } from '../../src/domain/hash-chain.js';
import type { AuditArchive } from '../../src/ports/audit-archive.js';
import type { AuditEvent, EventQuery } from '../../src/ports/event-store.js';

/** One backend: `open` opens (and reopens) the same archive; the hooks damage it behind its back. */
export interface ArchiveBackend {
  open(): Promise<AuditArchive>;
  /** Opens the same archive read-only, as the API process does (creates nothing, writes nothing). */
  openReadOnly(): Promise<AuditArchive>;
  /** Removes the segment that starts at `first` (a file, a row of the segments table). */
  deleteSegment(first: number): Promise<void>;
  /** Removes one archived entry from inside its segment. */
  deleteEntry(seq: number): Promise<void>;
  /** Drops the backend (a directory, a database). */
  dispose(): Promise<void>;
}

/** A chain of `n` entries as an event store would have written them. */
export function chainOf(n: number, t0 = Date.parse('2026-01-01T00:00:00Z')): AuditEvent[] {
  const out: AuditEvent[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const fields = {
      seq,
      at: new Date(t0 + seq * 60_000).toISOString(),
      kind: seq % 3 ? 'decision' : 'control',
      symbol: seq % 2 ? 'BTC-USD' : null,
      body: { i: seq, nested: { z: 1, a: [1.5, 'é', null] }, note: 'x"y\\z' },
    };
    const hash = chainHash(prev, fields);
    out.push({ ...fields, prev_hash: prev, hash });
    prev = hash;
  }
  return out;
}

export function auditArchiveContract(name: string, backend: () => Promise<ArchiveBackend>): void {
  describe(`AuditArchive: ${name}`, () => {
    const opened: AuditArchive[] = [];
    const backends: ArchiveBackend[] = [];
    afterEach(async () => {
      for (const a of opened.splice(0)) await a.close();
      for (const b of backends.splice(0)) await b.dispose();
    });
    async function fresh(): Promise<{ b: ArchiveBackend; archive: AuditArchive; reopen(): Promise<AuditArchive> }> {
      const b = await backend();
      backends.push(b);
      const reopen = async () => {
        const a = await b.open();
        opened.push(a);
        return a;
      };
      return { b, archive: await reopen(), reopen };
    }

    it('is empty at first and verifies as such', async () => {
      const { archive } = await fresh();
      expect(await archive.head()).toEqual(NO_FLOOR);
      expect(await archive.hashAt(1)).toBeNull();
      expect(await archive.read(1, 100)).toEqual([]);
      expect(await archive.verify()).toMatchObject({ ok: true, head: NO_FLOOR, segments: 0 });
    });

    it('keeps entries exactly, across segments, and its head survives a reopen', async () => {
      const { archive, reopen } = await fresh();
      const chain = chainOf(25);
      await archive.write(chain.slice(0, 10));
      await archive.write(chain.slice(10, 25));
      const again = await reopen();
      expect(await again.head()).toEqual({ seq: 25, hash: chain[24]!.hash });
      expect(await again.read(1, 25)).toEqual(chain);
      expect(await again.read(9, 12)).toEqual(chain.slice(8, 12));
      expect(await again.hashAt(17)).toBe(chain[16]!.hash);
      expect(await again.hashAt(26)).toBeNull();
      expect(await again.verify()).toEqual({
        ok: true,
        head: { seq: 25, hash: chain[24]!.hash },
        segments: 2,
        checked: 2,
      });
    });

    it('is idempotent: entries offered again are skipped, only the new ones are appended', async () => {
      const { archive } = await fresh();
      const chain = chainOf(30);
      await archive.write(chain.slice(0, 10));
      await archive.write(chain.slice(0, 10));
      await archive.write(chain.slice(5, 20));
      expect(await archive.head()).toEqual({ seq: 20, hash: chain[19]!.hash });
      expect((await archive.read(1, 30)).map((e) => e.seq)).toEqual(chain.slice(0, 20).map((e) => e.seq));
      expect((await archive.verify()).ok).toBe(true);
    });

    it('refuses entries that do not follow its head, and writes nothing', async () => {
      const { archive } = await fresh();
      const chain = chainOf(30);
      await archive.write(chain.slice(0, 10));
      await expect(archive.write(chain.slice(11, 20))).rejects.toThrow(/do not follow/);
      const forged = { ...chain[10]!, prev_hash: 'f'.repeat(64) };
      await expect(archive.write([forged])).rejects.toThrow(/do not follow/);
      await expect(archive.write([chain[10]!, chain[12]!])).rejects.toThrow(/contiguous/);
      expect(await archive.head()).toEqual({ seq: 10, hash: chain[9]!.hash });
      expect(await archive.read(11, 30)).toEqual([]);
    });

    it('refuses an entry it already holds offered again under another hash, and writes nothing', async () => {
      const { archive } = await fresh();
      const chain = chainOf(20);
      await archive.write(chain.slice(0, 10));
      const other = chainOf(20, Date.parse('2025-01-01T00:00:00Z'));
      await expect(archive.write(other.slice(0, 12))).rejects.toThrow(/entry 1 .*another hash/);
      expect(await archive.head()).toEqual({ seq: 10, hash: chain[9]!.hash });
      expect(await archive.read(1, 20)).toEqual(chain.slice(0, 10));
    });

    it('names a deleted segment as a gap, fully and incrementally', async () => {
      const { b, archive } = await fresh();
      const chain = chainOf(30);
      for (const from of [0, 10, 20]) await archive.write(chain.slice(from, from + 10));
      expect((await archive.verify({ incremental: true })).ok).toBe(true); // remembers the verified head
      await b.deleteSegment(11);
      const incremental = await archive.verify({ incremental: true });
      expect(incremental).toMatchObject({ ok: false, firstBad: { seq: 11 } });
      if (!incremental.ok) expect(incremental.firstBad.reason).toMatch(/11–20 are missing/);
      expect(await archive.verify()).toMatchObject({ ok: false, firstBad: { seq: 11 } });
    });

    it('names a deleted entry, fully and incrementally', async () => {
      const { b, archive } = await fresh();
      const chain = chainOf(30);
      for (const from of [0, 10, 20]) await archive.write(chain.slice(from, from + 10));
      expect((await archive.verify({ incremental: true })).ok).toBe(true);
      await b.deleteEntry(15);
      for (const incremental of [true, false]) {
        const result = await archive.verify({ incremental });
        expect(result).toMatchObject({ ok: false, firstBad: { seq: 15 } });
        if (!result.ok) expect(result.firstBad.reason).toMatch(/entry 15 is missing/);
      }
    });

    it('names a truncated archive (its last segment gone after it was verified)', async () => {
      const { b, archive } = await fresh();
      const chain = chainOf(20);
      await archive.write(chain.slice(0, 10));
      await archive.write(chain.slice(10, 20));
      expect((await archive.verify({ incremental: true })).ok).toBe(true);
      await b.deleteSegment(11);
      expect(await archive.head()).toEqual({ seq: 10, hash: chain[9]!.hash });
      const result = await archive.verify({ incremental: true });
      expect(result).toMatchObject({ ok: false, firstBad: { seq: 11 } });
      if (!result.ok) expect(result.firstBad.reason).toMatch(/truncated/);
    });
    it('query pages newest first across segments, up to `through`, with the event store filters', async () => {
      const { archive } = await fresh();
      const chain = chainOf(35);
      for (const from of [0, 10, 20, 30]) await archive.write(chain.slice(from, from + 10));
      // What the event store would answer over the same entries: the reference.
      const expected = (q: EventQuery, through: number): number[] =>
        chain
          .filter((e) => e.seq <= through && (q.before === undefined || e.seq < q.before))
          .filter(
            (e) => (q.kind === undefined || e.kind === q.kind) && (q.symbol === undefined || e.symbol === q.symbol),
          )
          .filter((e) => (q.since === undefined || e.at >= q.since) && (q.until === undefined || e.at < q.until))
          .map((e) => e.seq)
          .reverse()
          .slice(0, q.limit);
      const at = (seq: number): string => chain[seq - 1]!.at;
      const cases: Array<[EventQuery, number]> = [
        [{ limit: 5 }, 35],
        [{ limit: 5 }, 22],
        [{ limit: 7, before: 13 }, 30],
        [{ limit: 7, before: 31 }, 25],
        [{ limit: 1000 }, 35],
        [{ limit: 4, kind: 'decision', before: 22 }, 30],
        [{ limit: 6, symbol: 'BTC-USD' }, 30],
        [{ limit: 50, since: at(8), until: at(27) }, 30],
        [{ limit: 3, since: at(8), kind: 'control', symbol: 'BTC-USD' }, 35],
        [{ limit: 10, before: 1 }, 35],
        [{ limit: 10, since: at(34) }, 30],
      ];
      for (const [q, through] of cases)
        expect(
          (await archive.query(q, through)).map((e) => e.seq),
          JSON.stringify([q, through]),
        ).toEqual(expected(q, through));
      // Entries come back exactly as written.
      expect(await archive.query({ limit: 2, before: 12 }, 35)).toEqual([chain[10], chain[9]]);
    });

    it('query on an empty archive finds nothing', async () => {
      const { archive } = await fresh();
      expect(await archive.query({ limit: 10 }, 100)).toEqual([]);
    });

    it('opened read-only: reads what was written, and refuses to write', async () => {
      const { b, archive } = await fresh();
      const chain = chainOf(20);
      await archive.write(chain.slice(0, 10));
      const reader = await b.openReadOnly();
      opened.push(reader);
      expect((await reader.query({ limit: 3 }, 10)).map((e) => e.seq)).toEqual([10, 9, 8]);
      expect(await reader.head()).toEqual({ seq: 10, hash: chain[9]!.hash });
      await expect(reader.write(chain.slice(10, 20))).rejects.toThrow(/read-only/);
      expect(await archive.head()).toEqual({ seq: 10, hash: chain[9]!.hash });
    });

    it('opened read-only where nothing was ever archived: query is refused, and nothing is created', async () => {
      const b = await backend();
      backends.push(b);
      const reader = await b.openReadOnly();
      opened.push(reader);
      await expect(reader.query({ limit: 10 }, 5)).rejects.toThrow(/audit archive/);
      // Asked again, still refused: the first refusal created nothing (each adapter's own test looks).
      await expect(reader.query({ limit: 10 }, 5)).rejects.toThrow(/audit archive/);
    });
  });
}

/**
 * Reading a range across the archive and the hot store as one chain (issue 35): bounds by seq or by
 * time resolve alike on both sides of the archive/hot boundary, and a gap stops the read naming it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { openStore } from '../../src/adapters/open-store.js';
import { archiveAndTrim } from '../../src/application/audit-archiver.js';
import { parseBound, readRange, resolveRange } from '../../src/application/audit-range.js';
import type { AuditEvent } from '../../src/ports/event-store.js';
import type { Store } from '../../src/ports/store.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const t0 = Date.parse('2026-01-01T00:00:00Z');
const minute = (i: number) => new Date(t0 + i * 60_000).toISOString();

/** 2,500 entries one minute apart (entry n at t0 + (n-1) min); 2,200 archived, 300 hot. */
async function trimmed() {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-range-'));
  dirs.push(dir);
  const store = await openStore(`sqlite:${join(dir, 'tcs.db')}`);
  stores.push(store);
  for (let i = 0; i < 2500; i++) await store.events.append({ kind: 'decision', at: minute(i), body: { i } });
  const archive = fileArchive(join(dir, 'archive'));
  await archiveAndTrim(store.events, archive, { entries: 300 }, t0);
  return { store, archive, dir };
}

async function all(pages: AsyncGenerator<AuditEvent[]>): Promise<number[]> {
  const seqs: number[] = [];
  for await (const page of pages) seqs.push(...page.map((e) => e.seq));
  return seqs;
}

describe('audit range', () => {
  it('parses a seq or an ISO date/time and refuses anything else clearly', () => {
    expect(parseBound('12', '--from')).toEqual({ seq: 12 });
    expect(parseBound('2026-01-01', '--to')).toEqual({ at: '2026-01-01T00:00:00.000Z' });
    expect(parseBound('2026-01-01T01:30:00+01:00', '--to')).toEqual({ at: '2026-01-01T00:30:00.000Z' });
    expect(() => parseBound('0', '--from')).toThrow(/--from must be a seq >= 1/);
    expect(() => parseBound('yesterday', '--to')).toThrow(/--to must be a seq .* or an ISO 8601/);
    expect(() => parseBound('2026-13-45', '--to')).toThrow(/ISO 8601/);
  });

  it('reads a seq range across the archive and the hot store as one chain', async () => {
    const { store, archive } = await trimmed();
    expect(await store.events.floor()).toMatchObject({ seq: 2200 });
    const range = await resolveRange(store.events, archive, { seq: 150 }, { seq: 2350 });
    expect(range).toEqual({ from: 150, to: 2350 });
    expect(await all(readRange(store.events, archive, range))).toEqual(Array.from({ length: 2201 }, (_, i) => 150 + i));
    // No bounds: the whole trail; a --to beyond the newest stops at the newest.
    expect(await resolveRange(store.events, archive, undefined, undefined)).toEqual({ from: 1, to: 2500 });
    expect(await resolveRange(store.events, archive, { seq: 2490 }, { seq: 9999 })).toEqual({ from: 2490, to: 2500 });
  });

  it('resolves times to seqs on both sides (from inclusive, to exclusive)', async () => {
    const { store, archive } = await trimmed();
    // Entry n is stamped minute n-1: [minute 99, minute 2300) is entries 100–2300.
    expect(await resolveRange(store.events, archive, { at: minute(99) }, { at: minute(2300) })).toEqual({
      from: 100,
      to: 2300,
    });
    expect(await resolveRange(store.events, archive, { at: minute(2250) }, { at: minute(2251) })).toEqual({
      from: 2251,
      to: 2251,
    });
    expect(await resolveRange(store.events, archive, { at: minute(-10) }, { at: minute(0) })).toEqual({
      from: 1,
      to: 0,
    });
    await expect(resolveRange(store.events, archive, { seq: 9 }, { seq: 3 })).rejects.toThrow(/after --to/);
  });

  it('stops naming the entry that is in neither the archive nor the hot store', async () => {
    const { store, archive, dir } = await trimmed();
    rmSync(join(dir, 'archive', '000000001001-000000002000.jsonl.gz'));
    await expect(all(readRange(store.events, archive, { from: 900, to: 2400 }))).rejects.toThrow(
      /entry 1001 is in neither the archive nor the hot store/,
    );
  });
});

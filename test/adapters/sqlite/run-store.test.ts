/**
 * A simulation run's store (src/adapters/sqlite/run-store.ts), in both of its ways of writing the
 * audit trail: one transaction on the main connection, and a worker thread with its own connection
 * (threaded-audit.ts). Either way the trail is one unbroken, verifiable chain: appends interleaved
 * with the main connection's own chained writes (control changes), an entry returned as stored, and
 * after a crash or a refused write, what the file holds is a whole prefix of the chain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/adapters/sqlite/connection.js';
import { openRunStore } from '../../../src/adapters/sqlite/run-store.js';
import { migrate } from '../../../src/adapters/sqlite/schema.js';
import { startThreadedAudit } from '../../../src/adapters/sqlite/threaded-audit.js';
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.js';
import { applyControl } from '../../../src/application/control-transition.js';
import type { AuditEvent, NewAuditEvent } from '../../../src/ports/event-store.js';
import { readAll } from '../../contracts/support.js';
import { cancelPayload } from '../../support/commands.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-runstore-'));
  dirs.push(dir);
  return join(dir, 'events.db');
}

const AT = '2026-01-01T00:00:00.000Z';
const who = { actor: 'test', at: AT };

function decision(i: number): NewAuditEvent {
  return { kind: 'decision', at: AT, symbol: i % 2 === 0 ? 'BTCUSDT' : null, body: { cycle: i, list: [i, 'x'] } };
}

/** Rows in the file as another connection sees them (committed only). */
function committedRows(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The file's chain as `tcs audit verify` judges it, from a fresh shared-store connection. */
async function verifyFile(path: string) {
  const store = await openSqliteStore({ path, mustExist: true });
  try {
    return { verification: await store.events.verify(), entries: (await readAll(store.events)).reverse() };
  } finally {
    await store.close();
  }
}

describe.each([
  { mode: 'one transaction on the main connection', auditThread: false },
  { mode: 'a worker thread', auditThread: true },
])('run store, audit written by $mode', ({ auditThread }) => {
  it('keeps one chain through appends and control changes, and returns each entry as stored', async () => {
    const path = freshPath();
    const run = await openRunStore(path, { auditThread });
    const returned: AuditEvent[] = [];
    await run.store.control.initialise(AT);
    for (let i = 0; i < 70; i++) returned.push(await run.store.events.append(decision(i)));
    await applyControl(run.store.control, { type: 'control.pause', reason: 'mid-run' }, who);
    for (let i = 70; i < 75; i++) returned.push(await run.store.events.append(decision(i)));
    await applyControl(run.store.control, { type: 'control.resume', reason: 'go on' }, who);
    returned.push(await run.store.events.append(decision(75)));
    // Read through the run store itself: its reads see every entry appended before them.
    const seen = (await readAll(run.store.events)).reverse();
    expect(await run.store.events.verify()).toMatchObject({ ok: true, count: seen.length });
    run.commit();
    await run.store.close();

    const { verification, entries } = await verifyFile(path);
    expect(verification).toMatchObject({ ok: true });
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(entries.filter((e) => e.kind === 'decision')).toHaveLength(76);
    // The control changes sit where they were made: after decision 69 and after decision 74.
    const kinds = entries.map((e) => (e.kind === 'decision' ? (e.body.cycle as number) : e.kind));
    expect(kinds.slice(kinds.indexOf(69), kinds.indexOf(69) + 2)).toEqual([69, 'control']);
    expect(kinds.slice(kinds.indexOf(74), kinds.indexOf(74) + 3)).toEqual([74, 'control', 75]);
    const stored = new Map(entries.map((e) => [e.seq, e]));
    for (const e of returned) expect(stored.get(e.seq)).toEqual({ ...e, body: e.body });
    expect(seen).toEqual(entries);
  });

  it('remembers the control record it alone writes (read every cycle), and reads its own changes at once', async () => {
    const path = freshPath();
    const run = await openRunStore(path, { auditThread });
    await run.store.control.initialise(AT);
    const first = await run.store.control.read();
    run.commit(); // the main connection's open transaction would hold the lock the other connection needs
    // The file is the run's own: a row changed behind its back (nobody does) is not read again per cycle.
    const other = new Database(path);
    other.prepare("UPDATE control SET reason = 'behind its back' WHERE id = 1").run();
    other.close();
    expect(await run.store.control.read()).toEqual(first);
    // Its own changes are read at once: the kill, and the failed write that changes nothing.
    await applyControl(run.store.control, { type: 'control.kill', reason: 'stop now' }, who);
    const killed = await run.store.control.read();
    expect(killed).toMatchObject({ state: 'killed', reason: 'stop now', epoch: first.epoch + 1 });
    const stale = await run.store.control.compareAndSet({
      expectedEpoch: first.epoch,
      expectedStoreId: first.store_id,
      next: { ...first, state: 'running' },
      audit: { kind: 'control', at: AT, symbol: null, body: {} },
    });
    expect(stale.written).toBe(false);
    expect(await run.store.control.read()).toEqual(killed);
    await run.store.close();
  });

  it('claims what it enqueues after finding its queue empty, and a claimed command again once its lease expired', async () => {
    const path = freshPath();
    const run = await openRunStore(path, { auditThread });
    const { commands } = run.store;
    const claim = (now: number) => commands.claim('sim', { max: 10, leaseMs: 1_000, now });
    const cancel = { id: 'c1', type: 'cancel_all', payload: cancelPayload(), enqueued_at: AT } as const;
    // Enqueued while the first claim reads the empty queue: that empty read must not hide it afterwards.
    const [first] = await Promise.all([claim(0), commands.enqueue(cancel)]);
    expect([...first, ...(await claim(1))].map((c) => c.id)).toEqual(['c1']);
    expect(await claim(4)).toEqual([]); // claimed, its lease still running
    expect((await claim(2_000)).map((c) => c.id)).toEqual(['c1']); // the lease expired: handed out again
    await commands.complete('c1', { ok: true }, AT);
    expect(await claim(10_000)).toEqual([]);
    await commands.enqueue({ ...cancel, id: 'c2' });
    expect((await claim(10_001)).map((c) => c.id)).toEqual(['c2']);
    await run.store.close();
  });

  it('writes a batch in one transaction: nothing of it is in the file before the commit, all of it after', async () => {
    const path = freshPath();
    const run = await openRunStore(path, { auditThread });
    await run.store.control.initialise(AT);
    const before = committedRows(path);
    for (let i = 0; i < 100; i++) await run.store.events.append(decision(i));
    expect(committedRows(path)).toBe(before);
    run.commit();
    // The threaded writer commits on its own thread: this test waits for it without yielding to it.
    const deadline = Date.now() + 10_000;
    while (committedRows(path) < before + 100 && Date.now() < deadline);
    expect(committedRows(path)).toBe(before + 100);
    await run.store.close();
  });
});

describe('run store, audit written by a worker thread', () => {
  it('chains exactly as the main connection does: the same hashes, entry for entry', async () => {
    // The worker hashes (audit-append-worker.mjs); a shared store's appends hash on the main thread
    // (event-chain.ts chainedRow). Both files, given the same entries, must hold the same chain.
    const entries = Array.from({ length: 150 }, (_, i) => ({
      ...decision(i),
      at: new Date(Date.parse(AT) + (i % 7) * 1_000 - (i % 3) * 1_500).toISOString(),
      kind: i % 5 === 0 ? 'fill' : 'decision',
      body: { cycle: i, text: 'é\u2028"\\😀', nested: [{ b: -0, a: 2 ** 53 + 2 }, null, i / 3] },
    }));
    const threadedPath = freshPath();
    const db = openDatabase(threadedPath);
    migrate(db);
    const audit = startThreadedAudit(db, threadedPath, 10_000);
    for (const entry of entries) audit.append(entry);
    await audit.close();
    db.close();
    const directPath = freshPath();
    const direct = await openSqliteStore({ path: directPath });
    for (const entry of entries) await direct.events.append(entry);
    await direct.close();
    const rows = (path: string) => {
      const file = new Database(path, { readonly: true });
      try {
        return file.prepare('SELECT seq, at, kind, symbol, body, prev_hash, hash FROM events ORDER BY seq').all();
      } finally {
        file.close();
      }
    };
    const written = rows(threadedPath);
    expect(written).toHaveLength(150);
    expect(written).toEqual(rows(directPath));
    expect((await verifyFile(threadedPath)).verification).toMatchObject({ ok: true, count: 150 });
  });

  it('stops at a write the database refuses: later appends fail with its reason, the file keeps a whole chain', async () => {
    const path = freshPath();
    const run = await openRunStore(path, { auditThread: true });
    await run.store.control.initialise(AT);
    for (let i = 0; i < 10; i++) await run.store.events.append(decision(i));
    run.commit();
    expect(await run.store.events.count()).toBe(10);
    // A real refusal by SQLite (as a full disk or a corrupt page would be), on the 16th entry.
    const db = new Database(path);
    db.exec(
      "CREATE TRIGGER refuse BEFORE INSERT ON events WHEN NEW.seq = 16 BEGIN SELECT RAISE(ABORT, 'disk says no'); END",
    );
    db.close();
    for (let i = 10; i < 20; i++) await run.store.events.append(decision(i));
    await expect(run.store.events.count()).rejects.toThrow(/disk says no/);
    await expect(run.store.events.append(decision(20))).rejects.toThrow(/disk says no/);
    await expect(run.store.close()).rejects.toThrow(/disk says no/);

    // The refused batch (entries 11–20) is not in the file at all: no hole, the chain ends at 10.
    const { verification, entries } = await verifyFile(path);
    expect(verification).toMatchObject({ ok: true, count: 10 });
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('keeps appends at most a bounded number of rows ahead of a held-up writer, and fails at its deadline', async () => {
    const path = freshPath();
    const db = openDatabase(path);
    migrate(db);
    const audit = startThreadedAudit(db, path, 1_000);
    // Another connection holds the write lock: the worker cannot write a row.
    const holder = new Database(path);
    holder.exec('BEGIN IMMEDIATE');
    let appended = 0;
    let error: unknown = null;
    try {
      for (; appended < 10_000; appended++) audit.append(decision(appended));
    } catch (err) {
      error = err;
    }
    // It stopped a bounded number of rows ahead (2,048 plus one message of 32), not at the end of the loop.
    // Whichever deadline passes first: this thread's wait, or the worker's wait for the lock.
    expect(String(error)).toMatch(/audit writer: (catching up not done within 1000 ms|database is locked)/);
    expect(appended).toBeGreaterThanOrEqual(2_048);
    expect(appended).toBeLessThan(2_048 + 64);
    holder.exec('ROLLBACK');
    holder.close();
    await audit.close();
    db.close();
    const { verification, entries } = await verifyFile(path);
    expect(verification).toMatchObject({ ok: true });
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
  });

  it('reports a writer that could not start at the first wait, with its reason, not at the deadline', async () => {
    const path = freshPath();
    const db = openDatabase(path);
    migrate(db);
    // The worker opens the file by path: here it cannot (its folder is gone), as when a run's
    // directory is removed under it or the process is out of file descriptors.
    const audit = startThreadedAudit(db, join(path, '..', 'gone', 'events.db'), 10_000);
    audit.append(decision(0));
    const started = performance.now();
    expect(() => audit.commitSync()).toThrow(/audit writer: .*directory does not exist/);
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect(audit.close()).rejects.toThrow(/directory does not exist/);
    db.close();
  });

  it('closed twice at once: either close resolves only once everything is committed, and both report a failure', async () => {
    const path = freshPath();
    const run = await openRunStore(path, { auditThread: true });
    await run.store.control.initialise(AT);
    const before = committedRows(path);
    for (let i = 0; i < 500; i++) await run.store.events.append(decision(i));
    const first = run.store.close();
    await run.store.close();
    expect(committedRows(path)).toBe(before + 500);
    await first;

    const refused = freshPath();
    const failing = await openRunStore(refused, { auditThread: true });
    await failing.store.control.initialise(AT);
    const db = new Database(refused);
    db.exec("CREATE TRIGGER refuse BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk says no'); END");
    db.close();
    // The writer may meet the refusal while these are still being appended (a loaded machine lets it
    // flush early): from then on an append fails with the reason, as the test above shows. Either way
    // both closes must report it.
    for (let i = 0; i < 40; i++) {
      const appended = await failing.store.events.append(decision(i)).then(
        () => null,
        (err: unknown) => err,
      );
      if (appended !== null) {
        expect(String(appended)).toMatch(/disk says no/);
        break;
      }
    }
    const one = failing.store.close();
    await expect(failing.store.close()).rejects.toThrow(/disk says no/);
    await expect(one).rejects.toThrow(/disk says no/);
  });
});

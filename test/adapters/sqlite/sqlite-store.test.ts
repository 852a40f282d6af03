/**
 * The SQLite adapter: runs all four store contracts against real temporary files (a fresh file per
 * `open`, a second connection to it for `openSecond`), then checks what only SQLite has: file setup,
 * pragmas, migrations, persistence, index use, and a genuinely separate second process.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../src/adapters/sqlite/connection.js';
import { buildEventQuery } from '../../../src/adapters/sqlite/event-query.js';
import { migrate, SCHEMA_VERSION } from '../../../src/adapters/sqlite/schema.js';

/** The schema version that added the audit trail's chain head (event_head). */
const CHAIN_HEAD_VERSION = 3;
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.js';
import { canonicalJson } from '../../../src/domain/canonical-json.js';
import { GENESIS_HASH } from '../../../src/domain/hash-chain.js';
import type { EventQuery } from '../../../src/ports/event-store.js';
import type { Store } from '../../../src/ports/store.js';
import { commandQueueContract } from '../../contracts/command-queue.contract.js';
import { controlStoreContract } from '../../contracts/control-store.contract.js';
import { eventStoreTrimContract } from '../../contracts/event-store-trim.contract.js';
import { eventStoreAnchorContract } from '../../contracts/event-store-anchor.contract.js';
import { eventStoreClockContract } from '../../contracts/event-store-clock.contract.js';
import { eventStoreContract } from '../../contracts/event-store.contract.js';
import { keyValueStoreContract } from '../../contracts/key-value-store.contract.js';
import { sharedDocumentsContract } from '../../contracts/shared-documents.contract.js';
import { readAll } from '../../contracts/support.js';
import { initialised } from '../../support/stores.js';
import { storeIdentityContract } from '../../contracts/store-identity.contract.js';
import { tradingLeaseContract } from '../../contracts/trading-lease.contract.js';
import { applyControl } from '../../../src/application/control-transition.js';
import { cancelPayload, killCancelsPayload } from '../../support/commands.js';

const dirs: string[] = [];
let latestPath: string | undefined;

function freshPath(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-sqlite-'));
  dirs.push(dir);
  return join(dir, 'store.db');
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function open(): Promise<Store> {
  latestPath = freshPath();
  return initialised(await openSqliteStore({ path: latestPath }));
}

async function openSecond(): Promise<Store> {
  if (latestPath === undefined) throw new Error('openSecond called before open');
  return openSqliteStore({ path: latestPath });
}

function pathOf(store: Store): string {
  return store.description.replace(/^sqlite:/, '');
}

controlStoreContract('sqlite', open, openSecond);
tradingLeaseContract('sqlite', open, openSecond);
storeIdentityContract('sqlite', async () => openSqliteStore({ path: (latestPath = freshPath()) }), openSecond);
eventStoreContract('sqlite', open, openSecond, {
  // Straight to the file, behind the adapter's back: exactly what an attacker with disk access does.
  async tamper(store, seq, newBody) {
    const db = new Database(pathOf(store));
    try {
      const { changes } = db.prepare('UPDATE events SET body = ? WHERE seq = ?').run(canonicalJson(newBody), seq);
      if (changes !== 1) throw new Error(`tamper: no event ${seq}`);
    } finally {
      db.close();
    }
  },
});
/** Runs `write` on a separate connection straight to the store's file, behind the adapter's back. */
function behindTheBack(store: Store, write: (db: Database.Database) => void): void {
  const db = new Database(pathOf(store));
  try {
    write(db);
  } finally {
    db.close();
  }
}
eventStoreAnchorContract('sqlite', open, openSecond, {
  async deleteEntry(store, seq) {
    behindTheBack(store, (db) => db.prepare('DELETE FROM events WHERE seq = ?').run(seq));
  },
  async writeEntry(store, e) {
    behindTheBack(store, (db) =>
      db
        .prepare(
          'INSERT OR REPLACE INTO events (seq, at, kind, symbol, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(e.seq, e.at, e.kind, e.symbol, canonicalJson(e.body), e.prev_hash, e.hash),
    );
  },
  async setHeadHash(store, hash) {
    behindTheBack(store, (db) => db.prepare('UPDATE event_head SET hash = ? WHERE id = 1').run(hash));
  },
});
eventStoreClockContract('sqlite', open, async (clock) => {
  if (latestPath === undefined) throw new Error('openWithClock called before open');
  return openSqliteStore({ path: latestPath, clock });
});
commandQueueContract('sqlite', open, openSecond);
keyValueStoreContract('sqlite', open, openSecond);
sharedDocumentsContract('sqlite', open, openSecond);

describe('sqlite store specifics', () => {
  it('claims from an empty queue without the write lock, so a busy writer elsewhere does not block it', async () => {
    const store = await openSqliteStore({ path: freshPath(), timeoutMs: 50 });
    const other = new Database(pathOf(store));
    try {
      other.prepare('BEGIN IMMEDIATE').run();
      // Every cycle claims; with nothing queued it must not wait for (or fail on) the lock.
      expect(await store.commands.claim('t', { max: 10, leaseMs: 1_000, now: Date.now() })).toEqual([]);
      other.prepare('ROLLBACK').run();
      await store.commands.enqueue({
        id: 'c1',
        type: 'cancel_all',
        payload: cancelPayload(),
        enqueued_at: new Date().toISOString(),
      });
      other.prepare('BEGIN IMMEDIATE').run();
      // With a command queued the claim needs the lock: past the deadline it is a store failure.
      await expect(store.commands.claim('t', { max: 10, leaseMs: 1_000, now: Date.now() })).rejects.toThrow();
      other.prepare('ROLLBACK').run();
      expect((await store.commands.claim('t', { max: 10, leaseMs: 1_000, now: Date.now() })).map((c) => c.id)).toEqual([
        'c1',
      ]);
    } finally {
      other.close();
      await store.close();
    }
  });

  it('creates missing parent directories and describes itself by path', async () => {
    const path = join(freshPath(), '..', 'nested', 'deeper', 'tcs.db');
    const store = await openSqliteStore({ path });
    try {
      expect(existsSync(path)).toBe(true);
      expect(store.kind).toBe('sqlite');
      expect(store.description).toBe(`sqlite:${path}`);
      const latency = await store.ping();
      // A measured duration, not a speed check (speed is measured in bench/).
      expect(Number.isFinite(latency)).toBe(true);
      expect(latency).toBeGreaterThanOrEqual(0);
    } finally {
      await store.close();
    }
  });

  it('opens connections in WAL with a busy timeout and synchronous=NORMAL', () => {
    const db = openDatabase(freshPath());
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('busy_timeout', { simple: true })).toBe(500);
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
    } finally {
      db.close();
    }
  });

  it('reports each control change exactly once per subscriber, whichever connection made it', async () => {
    const a = await open();
    const b = await openSecond();
    try {
      const onA: number[] = [];
      const onB: number[] = [];
      const offA = await a.control.subscribe((r) => onA.push(r.epoch));
      const offB = await b.control.subscribe((r) => onB.push(r.epoch));
      const who = { actor: 'k', at: '2024-01-01T00:00:00.000Z' };
      await applyControl(a.control, { type: 'control.pause', reason: 'one' }, who);
      await vi.waitFor(() => expect(onB).toEqual([1]), { timeout: 2000, interval: 5 });
      // Writes that are not control changes move data_version too; they must not be reported.
      await b.kv.set('noise', { n: 1 });
      await a.events.append({ kind: 'decision', at: who.at, body: {} });
      await applyControl(a.control, { type: 'control.pause', reason: 'unchanged' }, who);
      await applyControl(b.control, { type: 'control.resume', reason: 'two' }, who);
      await vi.waitFor(() => expect(onA).toEqual([1, 2]), { timeout: 2000, interval: 5 });
      // A later change, heard by both, bounds the window: nothing else was reported before it.
      await applyControl(a.control, { type: 'control.kill', reason: 'three' }, who);
      await vi.waitFor(() => expect(onA.at(-1)).toBe(3), { timeout: 2000, interval: 5 });
      await vi.waitFor(() => expect(onB.at(-1)).toBe(3), { timeout: 2000, interval: 5 });
      expect(onA).toEqual([1, 2, 3]);
      expect(onB).toEqual([1, 2, 3]);
      await offA();
      await offB();
    } finally {
      await b.close();
      await a.close();
    }
  });

  it('close is idempotent and ping rejects afterwards', async () => {
    const store = await open();
    const unsubscribe = await store.control.subscribe(() => {});
    await store.close();
    await store.close();
    await expect(store.ping()).rejects.toThrow();
    await unsubscribe();
  });

  it('keeps the control state, the trail and the queue across close and reopen (killed stays latched)', async () => {
    const path = freshPath();
    const first = await initialised(await openSqliteStore({ path }));
    await applyControl(
      first.control,
      { type: 'control.kill', reason: 'latched' },
      { actor: 'k', at: '2024-01-01T00:00:00.000Z' },
    );
    await first.commands.enqueue({
      id: 'c1',
      type: 'kill_cancels',
      payload: killCancelsPayload(),
      enqueued_at: '2024-01-01T00:00:00.000Z',
    });
    await first.kv.set('heartbeat', { at: 1 });
    await first.close();
    const again = await openSqliteStore({ path });
    try {
      expect(await again.control.read()).toMatchObject({ state: 'killed', epoch: 1, reason: 'latched' });
      expect(await again.events.verify()).toMatchObject({ ok: true, count: 1 });
      expect((await again.commands.get('c1'))?.status).toBe('pending');
      expect(await again.kv.get('heartbeat')).toEqual({ at: 1 });
    } finally {
      await again.close();
    }
  });

  it('gives a store made before identities (schema 1, with its control row) an identity on upgrade', async () => {
    const path = freshPath();
    const db = new Database(path);
    db.exec(`CREATE TABLE control (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL, epoch INTEGER NOT NULL,
               reason TEXT, changed_at TEXT NOT NULL);
             CREATE TABLE events (seq INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, symbol TEXT,
               body TEXT NOT NULL, prev_hash TEXT NOT NULL, hash TEXT NOT NULL);
             CREATE TABLE commands (ord INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL,
               payload TEXT NOT NULL, enqueued_at TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
               claimed_by TEXT, lease_until INTEGER, result TEXT, completed_at TEXT);
             CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             INSERT INTO control VALUES (1, 'killed', 4, 'latched before the upgrade', '2024-01-01T00:00:00.000Z');
             PRAGMA user_version = 1;`);
    db.close();
    const store = await openSqliteStore({ path });
    try {
      expect(await store.control.read()).toMatchObject({
        state: 'killed',
        epoch: 4,
        store_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown as string,
        adopted_from: null,
      });
    } finally {
      await store.close();
    }
  });

  it('migrates once, records the schema version, and refuses a newer schema', () => {
    const path = freshPath();
    const db = openDatabase(path);
    try {
      migrate(db);
      migrate(db);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      // Migrations create no control row: only the store's creator does (initialise).
      expect(db.prepare('SELECT count(*) AS n FROM control').get()).toEqual({ n: 0 });
      db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      expect(() => migrate(db)).toThrow(/newer/);
    } finally {
      db.close();
    }
  });

  it('migrates a file from before the chain head by anchoring its last entry as the head', async () => {
    const path = freshPath();
    const first = await openSqliteStore({ path });
    for (let i = 1; i <= 3; i++)
      await first.events.append({ kind: 'decision', at: `2024-01-01T00:00:0${i}.000Z`, body: { i } });
    const intact = await first.events.verify();
    behindTheBack(first, (db) => {
      // Back to what the version before the chain head wrote: no chain head (and no control MAC).
      db.exec('DROP TABLE event_head; ALTER TABLE control DROP COLUMN mac');
      db.pragma(`user_version = ${CHAIN_HEAD_VERSION - 1}`);
    });
    await first.close();
    const migrated = await openSqliteStore({ path });
    try {
      expect(intact.ok).toBe(true);
      expect(await migrated.events.verify()).toEqual(intact);
      // Anchored now: deleting the newest entry no longer leaves a shorter trail that verifies.
      behindTheBack(migrated, (db) => db.prepare('DELETE FROM events WHERE seq = 3').run());
      expect(await migrated.events.verify()).toMatchObject({ ok: false, firstBad: { seq: 3 } });
    } finally {
      await migrated.close();
    }
  });

  it('migrates an empty file from before the chain head to the empty head', async () => {
    const path = freshPath();
    const first = await openSqliteStore({ path });
    behindTheBack(first, (db) => {
      db.exec('DROP TABLE event_head; ALTER TABLE control DROP COLUMN mac');
      db.pragma(`user_version = ${CHAIN_HEAD_VERSION - 1}`);
    });
    await first.close();
    const migrated = await openSqliteStore({ path });
    try {
      expect(await migrated.events.verify()).toEqual({ ok: true, count: 0, head: GENESIS_HASH });
      expect((await migrated.events.append({ kind: 'decision', at: '2024-01-01T00:00:00.000Z', body: {} })).seq).toBe(
        1,
      );
      expect((await migrated.events.verify()).ok).toBe(true);
    } finally {
      await migrated.close();
    }
  });

  it('serves every event query shape from an index, newest first, without a sort step', () => {
    const db = openDatabase(freshPath());
    try {
      migrate(db);
      const shapes: EventQuery[] = [
        { limit: 10 },
        { limit: 10, before: 5 },
        { limit: 10, kind: 'decision' },
        { limit: 10, kind: 'decision', before: 5 },
        { limit: 10, kind: 'decision', symbol: 'BTC-USD' },
        { limit: 10, kind: 'decision', symbol: 'BTC-USD', before: 9, since: '2024', until: '2025' },
        { limit: 10, symbol: 'BTC-USD' },
        { limit: 10, since: '2024', until: '2025' },
      ];
      for (const shape of shapes) {
        const { sql, params } = buildEventQuery(shape);
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>)
          .map((r) => r.detail)
          .join('; ');
        expect(plan, JSON.stringify(shape)).not.toMatch(/TEMP B-TREE/);
        if (shape.kind !== undefined && shape.symbol !== undefined) expect(plan).toMatch(/events_kind_symbol_seq/);
        else if (shape.kind !== undefined) expect(plan).toMatch(/events_kind_seq|events_kind_symbol_seq/);
        else if (shape.symbol !== undefined) expect(plan).toMatch(/events_symbol_seq/);
        else expect(plan).toMatch(/SCAN events|SEARCH events USING INTEGER PRIMARY KEY/);
      }
    } finally {
      db.close();
    }
  });

  it('rejects event query limits outside 1..1000', () => {
    expect(() => buildEventQuery({ limit: 0 })).toThrow(RangeError);
    expect(() => buildEventQuery({ limit: 1001 })).toThrow(RangeError);
    expect(() => buildEventQuery({ limit: 1.5 })).toThrow(RangeError);
  });

  it('shares one file safely with a genuinely separate process writing at the same time', async () => {
    const path = freshPath();
    const store = await initialised(await openSqliteStore({ path }));
    try {
      const childCount = 150;
      let childDone = false;
      let childReady = false;
      const proc = execFile(
        process.execPath,
        [
          '--import',
          'tsx',
          fileURLToPath(new URL('./fixtures/second-process.ts', import.meta.url)),
          path,
          String(childCount),
        ],
        { timeout: 15_000 },
      );
      let childOut = '';
      let childErr = '';
      proc.stderr?.on('data', (c: Buffer) => (childErr += c.toString()));
      proc.stdout?.on('data', (chunk: Buffer) => {
        childOut += chunk.toString();
        if (childOut.includes('ready\n')) childReady = true;
      });
      const child = new Promise<{ stdout: string }>((resolve, reject) =>
        proc.on('exit', (code) =>
          code === 0
            ? resolve({ stdout: childOut.split('ready\n')[1] ?? '' })
            : reject(new Error(`child ${code} ${childErr}`)),
        ),
      ).finally(() => {
        childDone = true;
      });
      // Both start writing at the same moment (the child's start-up through tsx takes a while).
      await vi.waitFor(() => expect(childReady || childDone).toBe(true), { timeout: 15_000, interval: 5 });
      // Keep writing until the child has finished, so both processes are writing at the same time.
      let parentCount = 0;
      let parentChanged = 0;
      while (!childDone && parentCount < 5_000) {
        const type = parentCount % 3 === 0 ? 'control.resume' : 'control.pause';
        const result = await applyControl(
          store.control,
          { type, reason: `parent ${parentCount}` },
          { actor: 'parent', at: new Date().toISOString() },
        );
        if (result.outcome === 'changed') parentChanged += 1;
        await store.events.append({
          kind: 'decision',
          at: new Date().toISOString(),
          symbol: 'ETH-USD',
          body: { from: 'parent', i: parentCount },
        });
        parentCount += 1;
        // Pace like the child does, so neither side monopolises the write lock.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const { stdout } = await child;
      const childChanged = (JSON.parse(stdout.trim()) as { changed: number }).changed;

      const record = await store.control.read();
      expect(record.epoch).toBe(parentChanged + childChanged);
      const verification = await store.events.verify();
      expect(verification).toMatchObject({ ok: true, count: 2 * (childCount + parentCount) });
      const control = (await readAll(store.events, { kind: 'control' })).reverse();
      expect(control).toHaveLength(childCount + parentCount);
      expect(control.filter((e) => e.body.actor === 'child')).toHaveLength(childCount);
      // The writers really overlapped: the actor switches many times along the trail.
      const switches = control.filter((e, i) => i > 0 && e.body.actor !== control[i - 1]?.body.actor).length;
      expect(switches).toBeGreaterThan(10);
      expect(await store.commands.claim('parent', { max: 1000, leaseMs: 1000, now: Date.now() })).toHaveLength(
        childCount,
      );
    } finally {
      await store.close();
    }
  });
});

eventStoreTrimContract('sqlite', open, openSecond, {
  async deleteEntry(store, seq) {
    behindTheBack(store, (db) => db.prepare('DELETE FROM events WHERE seq = ?').run(seq));
  },
});

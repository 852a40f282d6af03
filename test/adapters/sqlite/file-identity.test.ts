/**
 * The file check without a stat per read (issue 18, Performance): a write checks the path now, every
 * time; a read relies on a check that succeeded less than READ_CHECK_MAX_AGE_MS ago. Real files,
 * deleted, renamed away and back, and replaced; the check's clock is injected.
 */
import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileIdentity, READ_CHECK_MAX_AGE_MS } from '../../../src/adapters/sqlite/file-identity.js';
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.js';
import { applyControl } from '../../../src/application/control-transition.js';
import { StoreFaultError } from '../../../src/ports/store-errors.js';
import type { Store } from '../../../src/ports/store.js';
import { initialised } from '../../support/stores.js';
import { cancelPayload } from '../../support/commands.js';

function replaced(run: () => unknown): void {
  expect(run).toThrow(StoreFaultError);
  expect(run).toThrow(/was (deleted|replaced)/);
}

async function rejectsReplaced(call: Promise<unknown>): Promise<void> {
  const err: unknown = await call.then(
    () => new Error('it answered'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreFaultError);
  expect((err as StoreFaultError).kind).toBe('replaced');
}

describe('file identity', () => {
  let dir: string;
  let path: string;
  const clock = { t: 1_000, now: () => clock.t };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-file-identity-'));
    path = join(dir, 'tcs.db');
    copyFileSync(new URL(import.meta.url), path);
    clock.t = 1_000;
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a read relies on a check made less than the bound ago; from the bound on it sees the deletion', () => {
    const file = fileIdentity(path, clock);
    rmSync(path);
    clock.t += READ_CHECK_MAX_AGE_MS - 1;
    expect(() => file.assertRecent()).not.toThrow();
    clock.t += 1;
    replaced(() => file.assertRecent());
  });

  it('a write checks now, however recent the last check', () => {
    const file = fileIdentity(path, clock);
    rmSync(path);
    replaced(() => file.assertSame());
    // And the failed check is nothing a read may rely on.
    replaced(() => file.assertRecent());
  });

  it('a failed check is not kept: the same file back at its path passes again', () => {
    const file = fileIdentity(path, clock);
    renameSync(path, `${path}.away`);
    replaced(() => file.assertSame());
    renameSync(`${path}.away`, path);
    expect(() => file.assertRecent()).not.toThrow();
    expect(() => file.assertSame()).not.toThrow();
  });

  it('another file renamed into place is replaced, for writes at once and for reads from the bound on', () => {
    const file = fileIdentity(path, clock);
    copyFileSync(path, `${path}.copy`);
    renameSync(`${path}.copy`, path);
    expect(() => file.assertRecent()).not.toThrow();
    replaced(() => file.assertSame());
    clock.t += READ_CHECK_MAX_AGE_MS;
    replaced(() => file.assertRecent());
  });

  it('a clock that went backwards proves nothing: the read checks', () => {
    const file = fileIdentity(path, clock);
    rmSync(path);
    clock.t -= 5;
    replaced(() => file.assertRecent());
  });
});

describe('file identity in the store', () => {
  let dir: string;
  let path: string;
  let store: Store | undefined;
  const clock = { t: 0, now: () => clock.t };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-file-identity-store-'));
    path = join(dir, 'tcs.db');
    clock.t = 0;
    store = await initialised(await openSqliteStore({ path, fileCheckClock: clock }));
    await store.kv.set('before', 1);
  });

  afterEach(async () => {
    await store?.close();
    store = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  function deleteFile(): void {
    for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
  }

  it('after the file is deleted, reads answer within the bound (no stat per read) but every write is refused', async () => {
    const s = store!;
    const at = new Date().toISOString();
    const grant = await s.lease.acquire('trader', 10_000);
    if (!grant.acquired) throw new Error('no lease');
    deleteFile();

    clock.t += READ_CHECK_MAX_AGE_MS - 1;
    expect(await s.control.read()).toMatchObject({ state: 'running', epoch: 0 });
    expect(await s.kv.get('before')).toBe(1);

    // At the same instant a write checks the path itself: never into the deleted file.
    await rejectsReplaced(s.kv.set('after', 1));
    await rejectsReplaced(s.kv.set('after', 1, grant.grant.fence));
    await rejectsReplaced(s.kv.delete('before'));
    await rejectsReplaced(s.events.append({ kind: 'decision', at, symbol: null, body: {} }));
    await rejectsReplaced(applyControl(s.control, { type: 'control.kill', reason: 'gone' }, { actor: 't', at }));
    await rejectsReplaced(
      s.commands.enqueue({ id: 'c1', type: 'cancel_all', payload: cancelPayload(), enqueued_at: at }),
    );
    await rejectsReplaced(s.commands.complete('c1', {}, at));
    await rejectsReplaced(s.lease.renew(grant.grant, 10_000));
    await rejectsReplaced(s.lease.release(grant.grant));
    await rejectsReplaced(s.control.initialise(at));
  });

  it('from the bound on, every read says the file was deleted', async () => {
    const s = store!;
    deleteFile();
    clock.t += READ_CHECK_MAX_AGE_MS;
    await rejectsReplaced(s.control.read());
    await rejectsReplaced(s.kv.get('before'));
    await rejectsReplaced(s.events.query({ limit: 10 }));
    await rejectsReplaced(s.events.count());
    await rejectsReplaced(s.commands.get('c1'));
    await rejectsReplaced(s.events.verify());
  });
});

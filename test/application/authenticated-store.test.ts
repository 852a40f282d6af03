/**
 * The authenticated store (src/application/authenticated-store.ts) on both real stores: what our
 * processes write is signed and read back as it was; a command or control record altered in the
 * backend, in any field a writer could use, or signed under another CONTROL_SECRET, is refused —
 * a command comes back malformed with the reason (so the trading process rejects it), a control
 * record raises StoreFaultError 'tampered'. The MACs never leave this layer.
 */
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { redisKeys } from '../../src/adapters/redis/keys.js';
import { authenticatedStore } from '../../src/application/authenticated-store.js';
import { applyControl } from '../../src/application/control-transition.js';
import { isMalformed } from '../../src/domain/commands.js';
import { generateKey } from '../../src/domain/keys.js';
import { StoreFaultError } from '../../src/ports/store-errors.js';
import { TEST_CONTROL_SECRET } from '../support/control-secret.js';
import { rewriteControlRecord } from '../support/raw-control.js';
import { STORE_KINDS, openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const AT = '2026-01-05T12:00:00.000Z';
const NOW = Date.parse(AT);
const flatten = (id: string, actor = 'key_0123456789') => ({
  id,
  type: 'flatten' as const,
  payload: { symbols: ['BTCUSDT'], reason: 'close it', actor },
  enqueued_at: AT,
});

/** Rewrites a stored command's payload text in the backend (what a writer of the store can do). */
async function rewritePayload(t: TestStore, id: string, edit: (payload: Record<string, unknown>) => void) {
  if (t.url.startsWith('sqlite:')) {
    const db = new Database(t.url.slice('sqlite:'.length));
    try {
      const { payload } = db.prepare('SELECT payload FROM commands WHERE id = ?').get(id) as { payload: string };
      const parsed = JSON.parse(payload) as Record<string, unknown>;
      edit(parsed);
      db.prepare('UPDATE commands SET payload = ? WHERE id = ?').run(JSON.stringify(parsed), id);
    } finally {
      db.close();
    }
    return;
  }
  const url = new URL(t.url);
  const keys = redisKeys(url.searchParams.get('prefix') ?? '');
  url.search = '';
  const redis = new Redis(url.toString(), { maxRetriesPerRequest: 1 });
  try {
    const parsed = JSON.parse((await redis.hget(keys.command(id), 'payload'))!) as Record<string, unknown>;
    edit(parsed);
    await redis.hset(keys.command(id), 'payload', JSON.stringify(parsed));
  } finally {
    redis.disconnect();
  }
}

describe.each(STORE_KINDS)('authenticated store on %s', (kind) => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  it('signs what it queues and hands it back as queued, without the MAC', async () => {
    t = await openTestStore(kind);
    const store = authenticatedStore(t.store, TEST_CONTROL_SECRET);
    const { record } = await store.commands.enqueue(flatten('ok'));
    expect(isMalformed(record)).toBe(false);
    expect(record).not.toHaveProperty('mac');
    expect((await t.store.commands.get('ok')) as { mac?: string }).toMatchObject({
      mac: expect.stringMatching(/^hmac:/),
    });
    const [claimed] = await store.commands.claim('test', { max: 5, leaseMs: 30_000, now: NOW });
    expect(claimed).toMatchObject({ id: 'ok', type: 'flatten', payload: flatten('ok').payload, status: 'claimed' });
    expect(claimed).not.toHaveProperty('mac');
    expect(await store.commands.complete('ok', { status: 'done' }, AT)).not.toHaveProperty('problem');
  });

  it.each([
    ['another actor', (p: Record<string, unknown>) => void (p.actor = 'admin')],
    ['more symbols', (p: Record<string, unknown>) => void (p.symbols = null)],
    ['no MAC', (p: Record<string, unknown>) => void delete p.mac],
    ['a malformed MAC', (p: Record<string, unknown>) => void (p.mac = 'hmac:nothex')],
  ])('a queued command altered to carry %s is handed back malformed, never as a command', async (_, edit) => {
    t = await openTestStore(kind);
    const store = authenticatedStore(t.store, TEST_CONTROL_SECRET);
    await store.commands.enqueue(flatten('altered'));
    await rewritePayload(t, 'altered', edit);
    const [claimed] = await store.commands.claim('test', { max: 5, leaseMs: 30_000, now: NOW });
    expect(isMalformed(claimed!)).toBe(true);
    expect(claimed).toMatchObject({ id: 'altered', type: 'flatten', status: 'claimed' });
    expect((claimed as { problem: string }).problem).toMatch(/not authenticated under CONTROL_SECRET/);
    expect(isMalformed((await store.commands.get('altered'))!)).toBe(true);
  });

  it('a command signed under another CONTROL_SECRET is refused, and so is one moved to another id', async () => {
    t = await openTestStore(kind);
    const other = authenticatedStore(t.store, generateKey());
    await other.commands.enqueue(flatten('other-secret'));
    const store = authenticatedStore(t.store, TEST_CONTROL_SECRET);
    expect((await store.commands.get('other-secret')) as { problem?: string }).toMatchObject({
      problem: expect.stringMatching(/does not match its contents/) as unknown as string,
    });
    // The same payload, MAC and all, under a new id: a replay, refused.
    await store.commands.enqueue(flatten('original'));
    const signed = (await t.store.commands.get('original')) as { mac: string; payload: object };
    await t.store.commands.enqueue({ ...flatten('replayed'), mac: signed.mac });
    expect(isMalformed((await store.commands.get('replayed'))!)).toBe(true);
  });

  it('signs every control record it writes; one rewritten in the backend is a tampered store', async () => {
    t = await openTestStore(kind);
    const store = authenticatedStore(t.store, TEST_CONTROL_SECRET);
    const changed = await applyControl(store.control, { type: 'control.pause', reason: 'p' }, { actor: 'k', at: AT });
    expect(await store.control.read()).toEqual(changed.record);
    expect(changed.record).not.toHaveProperty('mac');
    for (const fields of [{ state: 'running' }, { epoch: changed.record.epoch + 1 }, { reason: 'calm down' }]) {
      await rewriteControlRecord(t, fields);
      const err = await store.control.read().catch((e: unknown) => e);
      expect(err, JSON.stringify(fields)).toBeInstanceOf(StoreFaultError);
      expect(err).toMatchObject({ kind: 'tampered', message: expect.stringMatching(/tcs store adopt/) });
      // A write decided on it is refused the same way, never on the forged record.
      await expect(
        applyControl(store.control, { type: 'control.resume', reason: 'r' }, { actor: 'k', at: AT }),
      ).rejects.toMatchObject({ kind: 'tampered' });
      await rewriteControlRecord(t, { state: 'paused', epoch: changed.record.epoch, reason: 'p' });
    }
    expect(await store.control.read()).toEqual(changed.record);
    // Under another secret the genuine record is not authenticated either.
    await expect(authenticatedStore(t.store, generateKey()).control.read()).rejects.toMatchObject({ kind: 'tampered' });
  });
});

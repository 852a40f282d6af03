/**
 * The latch file keeps one entry per store: saving one store's latch leaves every other store's as
 * it was (a switch of STORE_URL is a first start there, and back again the old store is judged as
 * before, kill included); each entry only moves forward; an old single-store file is attached to the
 * first store the trading process opens with it and stays that store's; an unreadable file fails.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { latchFile } from '../../../src/adapters/latch/latch-file.js';
import type { TradingLatch } from '../../../src/ports/latch.js';

const A = 'sqlite:/srv/a.db';
const B = 'redis://127.0.0.1:6379/15?prefix=tcs%3A';
const at = '2026-01-05T12:00:00.000Z';
const latch = (storeId: string, epoch: number, state: TradingLatch['state'] = 'running'): TradingLatch => ({
  storeId,
  epoch,
  state,
  updatedAt: at,
});

describe('latch file, per store', () => {
  const dirs: string[] = [];
  const pathIn = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-latch-'));
    dirs.push(dir);
    return join(dir, 'var', 'trading-latch.json');
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('keeps each store apart: a new key is a first start, the old one is untouched', async () => {
    const path = pathIn();
    await latchFile(path, A).save(latch('id-a', 3, 'killed'));
    expect(await latchFile(path, B).load()).toBeNull();
    await latchFile(path, B).save(latch('id-b', 1));
    expect(await latchFile(path, A).load()).toMatchObject({ storeId: 'id-a', epoch: 3, state: 'killed' });
    expect(await latchFile(path, B).load()).toMatchObject({ storeId: 'id-b', epoch: 1, state: 'running' });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ version: 2, stores: { [A]: {}, [B]: {} } });
  });

  it('moves an entry only forward for the same store, and to an adopted identity', async () => {
    const path = pathIn();
    const a = latchFile(path, A);
    await a.save({ ...latch('id-a', 5), auditSeq: 9, auditHash: 'f'.repeat(64) });
    await a.save(latch('id-a', 4));
    expect(await a.load()).toMatchObject({ epoch: 5, auditSeq: 9 });
    await a.save({ ...latch('id-a', 6), auditSeq: 2, auditHash: 'e'.repeat(64) });
    expect(await a.load()).toMatchObject({ epoch: 6, auditSeq: 9, auditHash: 'f'.repeat(64) });
    await a.save(latch('id-adopted', 7, 'paused'));
    expect(await a.load()).toMatchObject({ storeId: 'id-adopted', epoch: 7 });
  });

  it('attaches an old single-store latch to the first store the trading process opens, and keeps it there', async () => {
    const path = pathIn();
    await latchFile(path, A).save(latch('x', 0)); // makes the directory
    const old = { storeId: 'id-old', epoch: 4, state: 'killed', updatedAt: at };
    writeFileSync(path, JSON.stringify(old));
    // A reader that writes nothing holds it against whatever store it was given.
    expect(await latchFile(path, B).load()).toMatchObject({ storeId: 'id-old', epoch: 4 });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(old);
    const claimed: TradingLatch[] = [];
    const first = await latchFile(path, B, { claimLegacy: true, onLegacyClaimed: (l) => claimed.push(l) }).load();
    expect(first).toMatchObject({ storeId: 'id-old', epoch: 4, state: 'killed' });
    expect(claimed).toHaveLength(1);
    // From now on it is B's, durably; another store is a first start.
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      version: 2,
      stores: { [B]: { storeId: 'id-old' } },
    });
    expect(await latchFile(path, A, { claimLegacy: true }).load()).toBeNull();
    expect(await latchFile(path, B).load()).toMatchObject({ storeId: 'id-old', state: 'killed' });
  });

  it('refuses an unreadable file for every store, never reading it as "no latch"', async () => {
    const path = pathIn();
    await latchFile(path, A).save(latch('id-a', 1));
    for (const text of ['{', '{"version":3,"stores":{}}', `{"version":2,"stores":{"${A}":{"epoch":1}}}`]) {
      writeFileSync(path, text);
      await expect(latchFile(path, B).load()).rejects.toThrow(/unreadable/);
      await expect(latchFile(path, A, { claimLegacy: true }).load()).rejects.toThrow(/unreadable/);
    }
  });
});

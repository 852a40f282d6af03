/**
 * `tcs store init` as an operator (or docker compose's store-init service) runs it: a store this host
 * never saw gets its control record and a latch entry; run again, it changes nothing; a store the latch
 * remembers that lost its data is never created again (it stays the `empty` fault, for an adoption).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { startTcs } from '../support/processes.js';

async function run(args: string[], cwd: string) {
  const proc = startTcs(args, { STORE_TIMEOUT_MS: '3000' }, cwd);
  const { code } = await proc.exited;
  return { code, stdout: proc.stdout(), stderr: proc.stderr() };
}

describe('tcs store init', () => {
  let dir = '';
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates a first start store and remembers it; a second run and a lost store change nothing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-store-init-'));
    const first = await run(['store', 'init'], dir);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/first start on sqlite:.*created its control record/);
    const store = await openSqliteStore({ path: join(dir, 'var', 'tcs.db') });
    const record = await store.control.read();
    await store.close();
    expect(record).toMatchObject({ state: 'running', epoch: 0 });
    const latch = JSON.parse(readFileSync(join(dir, 'var', 'trading-latch.json'), 'utf8')) as {
      stores: Record<string, { storeId: string }>;
    };
    expect(Object.values(latch.stores).map((l) => l.storeId)).toEqual([record.store_id]);

    const again = await run(['store', 'init'], dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/known to this host.*nothing to initialise/);

    rmSync(join(dir, 'var', 'tcs.db'));
    const lost = await run(['store', 'init'], dir);
    expect(lost.code).toBe(0);
    expect(lost.stderr).toMatch(/known to this host/);
    expect(existsSync(join(dir, 'var', 'tcs.db'))).toBe(false);
  }, 60_000);

  it('answers --help and refuses what it does not know', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-store-init-'));
    const help = await run(['store', '--help'], dir);
    expect(help.code).toBe(0);
    expect(help.stdout + help.stderr).toMatch(/tcs store init/);
    const wrong = await run(['store', 'create'], dir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/usage: tcs store init \| tcs store adopt --reason TEXT/);
  }, 60_000);
});

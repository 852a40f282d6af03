/**
 * `tcs audit verify` holds every completed command against its `command_executed` entry. Once the
 * window is archived and trimmed, a command's entry lives in the archive, not the store: verify must
 * look there too, not call the trail incomplete (found reading the retention bench: its runs had no
 * commands). A completed command with no entry anywhere is still named.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { openStore } from '../../src/adapters/open-store.js';
import { archiveAndTrim } from '../../src/application/audit-archiver.js';
import { killCancelsPayload } from '../support/commands.js';
import { startTcs } from '../support/processes.js';
import { initialised } from '../support/stores.js';

const T0 = 1_767_225_600_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('tcs audit verify after a trim', () => {
  it(
    "finds a completed command's entry in the archive, and still names a command with none",
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'tcs-verify-commands-'));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const storeUrl = `sqlite:${join(dir, 'tcs.db')}`;
      const archiveUrl = `file:${join(dir, 'archive')}`;
      const store = await initialised(await openStore(storeUrl));
      const at = (i: number) => new Date(T0 + i * 1000).toISOString();
      try {
        await store.commands.enqueue({
          id: 'c-old',
          type: 'kill_cancels',
          payload: killCancelsPayload(['BTCUSDT']),
          enqueued_at: at(0),
        });
        await store.commands.claim('t', { max: 1, leaseMs: 30_000, now: T0 });
        await store.commands.completeWithEntry('c-old', { status: 'done' }, at(1), {
          kind: 'command_executed',
          at: at(1),
          symbol: null,
          body: { command_id: 'c-old', type: 'kill_cancels', result: { status: 'done' } },
        });
        for (let i = 0; i < 1200; i++) await store.events.append({ kind: 'decision', at: at(2 + i), body: { i } });
        await archiveAndTrim(store.events, fileArchive(join(dir, 'archive')), { entries: 100 }, T0 + 10_000_000);
        expect((await store.events.floor()).seq).toBeGreaterThan(2);
      } finally {
        await store.close();
      }
      const env = { STORE_URL: storeUrl, AUDIT_ARCHIVE_URL: archiveUrl, TRADING_LATCH_PATH: join(dir, 'latch.json') };
      const ok = startTcs(['audit', 'verify'], env, dir);
      expect((await ok.exited).code, ok.stderr()).toBe(0);

      // A command completed without its entry (the store edited behind our back) is still named.
      const again = await openStore(storeUrl);
      try {
        await again.commands.enqueue({
          id: 'c-new',
          type: 'kill_cancels',
          payload: killCancelsPayload(['BTCUSDT']),
          enqueued_at: at(5000),
        });
        await again.commands.claim('t', { max: 1, leaseMs: 30_000, now: T0 + 5_000_000 });
        await again.commands.complete('c-new', { status: 'done' }, at(5001));
      } finally {
        await again.close();
      }
      const named = startTcs(['audit', 'verify'], env, dir);
      expect((await named.exited).code).toBe(1);
      expect(named.stderr()).toMatch(/1 completed commands have no command_executed entry: c-new/);
    },
  );
});

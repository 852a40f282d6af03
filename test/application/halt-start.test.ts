/**
 * Which safety halts are recorded as they begin (src/application/halt-start.ts), on a real SQLite
 * store: a halt whose cause is outside the store (the control plane, the exchange) is one
 * `trading_halt_started` entry; a halt over the store, the latch, the lease or the clock writes
 * nothing to that store (a store that came back empty or replaced must not gain an entry).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { recordHaltStart } from '../../src/application/halt-start.js';
import { HALT_REASON_CATALOG } from '../../src/domain/halt-reasons.js';
import { initialised } from '../support/stores.js';

const dir = mkdtempSync(join(tmpdir(), 'tcs-halt-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const SINCE = Date.UTC(2026, 0, 5, 12);

it('records the halts caused outside the store, and nothing for the others', async () => {
  const store = await initialised(await openSqliteStore({ path: join(dir, 's.db') }));
  try {
    for (const reason of Object.keys(HALT_REASON_CATALOG))
      await recordHaltStart(store.events, { reason, message: `${reason} drill`, since: SINCE, earlier: [] });
    const recorded = await store.events.query({ kind: 'trading_halt_started', limit: 50 });
    expect(recorded.map((e) => e.body.reason).sort()).toEqual([
      'control_plane_lost',
      'exchange_banned',
      'exchange_clock_skew',
      'exchange_switch_down',
      'exchange_unreachable',
    ]);
    expect(recorded.find((e) => e.body.reason === 'control_plane_lost')?.body).toEqual({
      reason: 'control_plane_lost',
      message: 'control_plane_lost drill',
      since: new Date(SINCE).toISOString(),
    });
  } finally {
    await store.close();
  }
});

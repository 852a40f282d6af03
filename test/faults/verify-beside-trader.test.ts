/**
 * Issue 30, finding 7: `tcs audit verify` run beside a trading process that is appending. Verify
 * snapshotted the trail and only then read the latch, which the trader had moved on meanwhile, so a
 * trail that was merely growing was reported "intact but INCOMPLETE … entries were lost" every time.
 * The latch is now read before the snapshot: whatever it remembers is already in the trail verified.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { generateKey } from '../../src/domain/keys.js';
import { eventually } from '../support/fault-api.js';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { initialised } from '../support/stores.js';
import { PERMISSIVE_ENV } from '../support/trading.js';

/** A trail long enough that one verify walks it for a good part of a second, as a store of some weeks. */
const EARLIER_ENTRIES = 40_000;

const cycles = (proc: RunningProcess) => (proc.stdout().match(/"event":"cycle_end"/g) ?? []).length;

describe('tcs audit verify beside a running trader', () => {
  let dir = '';
  const procs: RunningProcess[] = [];
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('says intact (exit 0) every time while the trail grows', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-verify-live-'));
    const path = join(dir, 'tcs.db');
    const seed = await initialised(await openSqliteStore({ path }));
    try {
      for (let i = 0; i < EARLIER_ENTRIES; i++)
        await seed.events.append({ kind: 'note', at: new Date(0).toISOString(), body: { i } });
    } finally {
      await seed.close();
    }
    const env = {
      ...PERMISSIVE_ENV,
      STORE_URL: `sqlite:${path}`,
      TRADING_LATCH_PATH: join(dir, 'latch.json'),
      RISK_HMAC_SECRET: generateKey(),
      // Fast cycles: the trader appends and moves its latch many times while one verify runs.
      CYCLE_SECONDS: '0.05',
      CONTROL_PLANE_TIMEOUT: '0',
      LOG_LEVEL: 'info',
    };
    const trader = startTcs(['trade'], env, dir);
    procs.push(trader);
    await eventually(async () => cycles(trader) >= 20, 'twenty cycles', 30_000);

    const outcomes: string[] = [];
    for (let run = 0; run < 4; run++) {
      const verify = startTcs(['audit', 'verify'], env, dir);
      procs.push(verify);
      const { code } = await exitWithin(verify, 20_000);
      outcomes.push(`${code}: ${(verify.stdout() + verify.stderr()).trim()}`);
    }
    // The trader was appending throughout (it is no test of a quiet trail).
    expect(trader.child.exitCode).toBeNull();
    for (const outcome of outcomes) expect(outcome).toMatch(/^0: audit trail intact/);
  }, 120_000);
});

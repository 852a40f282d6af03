/**
 * `tcs trade` on a killed store, as docker compose runs it: it says it is killed and how to end it,
 * and `tcs trade --reset-kill` is the same audited reset as `tcs start --reset-kill`, refused while
 * another live trading process holds the store (a reset underneath it would leave a process that
 * stays killed while the store says running).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyControl } from '../../src/application/control-transition.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import type { Store } from '../../src/ports/store.js';
import { generateKey } from '../../src/domain/keys.js';
import { exitWithin, startTcs } from '../support/processes.js';
import type { RunningProcess } from '../support/processes.js';
import { initialised } from '../support/stores.js';
import { signedWith } from '../support/control-secret.js';

describe('tcs trade on a killed store', () => {
  let dir = '';
  let store: Store | undefined;
  const procs: RunningProcess[] = [];
  afterEach(async () => {
    for (const p of procs.splice(0)) await p.stop();
    await store?.close();
    store = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const at = '2026-01-05T12:00:00.000Z';
  async function killedStore() {
    dir = mkdtempSync(join(tmpdir(), 'tcs-trade-'));
    const path = join(dir, 'tcs.db');
    store = await initialised(await openSqliteStore({ path }));
    await applyControl(
      signedWith(store).control,
      { type: 'control.kill', reason: 'venue outage' },
      { actor: 'test', at },
    );
    // `tcs trade` runs alone here: no API to wait for.
    return {
      STORE_URL: `sqlite:${path}`,
      RISK_HMAC_SECRET: generateKey(),
      CYCLE_SECONDS: '0.2',
      LOG_LEVEL: 'info',
      CONTROL_PLANE_TIMEOUT: '0',
    };
  }
  const trade = (args: string[], env: NodeJS.ProcessEnv) => {
    const proc = startTcs(['trade', ...args], env, dir);
    procs.push(proc);
    return proc;
  };

  it('says it is killed, since when and why, that nothing trades, and the exact reset command', async () => {
    const proc = trade([], await killedStore());
    const [line] = await proc.waitFor(/tcs: .*KILLED.*\n/);
    expect(line).toContain('venue outage');
    expect(line).toContain(at);
    expect(line).toContain('nothing trades');
    expect(line).toContain('tcs trade --reset-kill --reason "…"');
  });

  it('--reset-kill resets killed → running, audited with the reason, then trades', async () => {
    const proc = trade(['--reset-kill', '--reason', 'incident closed'], await killedStore());
    await proc.waitFor(/--reset-kill: killed → running/);
    await proc.waitFor(/"event":"cycle_start"/);
    expect(proc.stderr()).not.toContain('KILLED');
    expect((await store!.control.read()).state).toBe('running');
    const [reset] = await store!.events.query({ kind: 'kill_reset', limit: 1 });
    expect(reset?.body).toMatchObject({ reason: 'incident closed', from: 'killed', to: 'running' });
  });

  it('--reset-kill is refused while another trading process runs on the store, and nothing is reset', async () => {
    const env = await killedStore();
    const first = trade([], env);
    await first.waitFor(/KILLED/);
    const second = trade(['--reset-kill', '--reason', 'too early'], env);
    const { code } = await exitWithin(second, 15_000);
    expect(code).toBe(1);
    expect(second.stderr()).toMatch(/another trading process holds this store's trading lease \(\d+@/);
    expect((await store!.control.read()).state).toBe('killed');
    expect(await store!.events.query({ kind: 'kill_reset', limit: 1 })).toHaveLength(0);
  });

  it('--reason without --reset-kill is refused (exit 2), and --help shows --reset-kill', async () => {
    dir = mkdtempSync(join(tmpdir(), 'tcs-trade-'));
    const bad = trade(['--reason', 'x'], {});
    expect((await exitWithin(bad, 10_000)).code).toBe(2);
    expect(bad.stderr()).toContain('--reason only goes with --reset-kill');
    const help = trade(['--help'], {});
    expect((await exitWithin(help, 10_000)).code).toBe(0);
    expect(help.stdout()).toMatch(/--reset-kill/);
    expect(help.stdout()).toMatch(/docker compose/);
  });
});

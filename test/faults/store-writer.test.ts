/**
 * Issue 30, finding 10: someone who can write the store but does not hold CONTROL_SECRET cannot
 * command the trader. `tcs start` (the API and the trading process as real OS processes) on SQLite
 * and on Redis; the test writes straight into the backend, past every adapter: a flatten and a
 * drawdown reset INSERTed/HSET into the command queue (no MAC, or one made with another secret) are
 * completed as `rejected` with the reason, audited, and logged as errors, never executed; a control
 * record rewritten from `paused` to `running` is a store fault: the API answers 503 TCS_STORE_FAULT
 * and the trading process halts (`store_tampered`), it does not resume. A record from a release
 * before MACs is refused the same way (a MAC stripped by a writer looks no different) until the
 * operator's `tcs store adopt` re-signs it: paused, since the latch vouches for its identity and epoch.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHmac } from 'node:crypto';
import { generateKey } from '../../src/domain/keys.js';
import { plantStoredCommand } from '../support/raw-commands.js';
import { rewriteControlRecord } from '../support/raw-control.js';
import { STORE_KINDS } from '../support/stores.js';
import { openE2e } from '../e2e/harness.js';
import type { E2e } from '../e2e/harness.js';
import { expectStoreFailure } from './expect-store-failure.js';
import { startTcs } from '../support/processes.js';

const FORGED = [
  {
    id: 'forged-flatten',
    type: 'flatten',
    payload: JSON.stringify({ symbols: null, reason: 'forged', actor: 'admin', v: 1 }),
  },
  { id: 'forged-reset', type: 'risk_reset', payload: JSON.stringify({ reason: 'forged', actor: 'admin', v: 1 }) },
  {
    // A MAC of the right shape, made under a secret the processes do not hold.
    id: 'forged-mac',
    type: 'flatten',
    payload: JSON.stringify({
      symbols: null,
      reason: 'forged',
      actor: 'admin',
      v: 1,
      mac: `hmac:${createHmac('sha256', generateKey()).update('forged-mac').digest('hex')}`,
    }),
  },
];

describe.each(STORE_KINDS)('a writer of the %s store without CONTROL_SECRET', (kind) => {
  let e: E2e | undefined;
  afterEach(async () => {
    await e?.close();
    e = undefined;
  });

  it('cannot make the trader run a command: each is completed as rejected, audited and logged', async () => {
    e = await openE2e(kind);
    await e.proc.waitFor(/"event":"cycle_start"/);
    for (const raw of FORGED) await plantStoredCommand(e.t, raw);
    for (const { id } of FORGED) {
      await vi.waitFor(async () => expect((await e!.t.store.commands.get(id))?.status).toBe('done'), {
        timeout: 15_000,
        interval: 50,
      });
      const done = await e.t.store.commands.get(id);
      expect(done?.result, id).toMatchObject({ status: 'rejected' });
      expect(String(done?.result?.message), id).toMatch(/CONTROL_SECRET/);
    }
    const audited = await e.t.store.events.query({ kind: 'command_executed', limit: 100 });
    for (const { id } of FORGED) {
      const entry = audited.find((a) => (a.body as { command_id: string }).command_id === id);
      expect((entry?.body as { result: { status: string } }).result.status, id).toBe('rejected');
    }
    // No flatten ran, no drawdown was reset.
    expect(await e.t.store.events.query({ kind: 'drawdown_reset', limit: 10 })).toEqual([]);
    expect(e.count('drawdown_reset')).toBe(0);
    expect(e.count('flatten_completed')).toBe(0);
    for (const { id } of FORGED) await e.proc.waitFor(new RegExp(`"level":50[^\\n]*${id}|${id}[^\\n]*"level":50`));
  }, 60_000);

  it('cannot resume a paused system: the rewritten record is a fault, the API answers 503, the trader halts', async () => {
    e = await openE2e(kind);
    await e.proc.waitFor(/"event":"cycle_start"/);
    expect((await e.call('POST', '/control/pause', { reason: 'operator pause' })).status).toBe(200);
    const paused = (await (await e.call('GET', '/control/status')).json()) as { state: string; epoch: number };
    expect(paused.state).toBe('paused');

    await rewriteControlRecord(e.t, { state: 'running', epoch: paused.epoch + 1, reason: 'forged resume' });

    await vi.waitFor(
      async () => {
        const res = await e!.call('GET', '/control/status');
        expectStoreFailure(
          { status: res.status, body: (await res.json()) as Record<string, unknown> },
          'TCS_STORE_FAULT',
        );
      },
      { timeout: 15_000, interval: 100 },
    );
    await e.proc.waitFor(/"event":"trading_halted","reason":"store_tampered"/);
  }, 60_000);

  it('a record from a release before MACs is refused until `tcs store adopt` re-signs it, paused', async () => {
    e = await openE2e(kind);
    await e.proc.waitFor(/"event":"cycle_start"/); // the latch now remembers this store
    await e.proc.stop();
    await rewriteControlRecord(e.t, { mac: null });

    await e.start();
    await e.proc.waitFor(/not trading: the control record \(running at epoch 0\) is not authenticated/);
    const refused = await e.call('GET', '/control/status');
    expectStoreFailure(
      { status: refused.status, body: (await refused.json()) as Record<string, unknown> },
      'TCS_STORE_FAULT',
    );
    expect(e.count('cycle_start')).toBe(0);

    const adopt = startTcs(['store', 'adopt', '--reason', 'upgrade to MACs'], e.env, e.dir);
    expect((await adopt.exited).code, adopt.stderr()).toBe(0);
    expect(adopt.stderr()).toMatch(/paused at epoch 1/);
    await vi.waitFor(
      async () => {
        const res = await e!.call('GET', '/control/status');
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ state: 'paused', epoch: 1 });
      },
      { timeout: 15_000, interval: 100 },
    );
    await e.proc.waitFor(/"msg":"trading process started"/);
  }, 90_000);
});

/**
 * End to end (`tcs start` on SQLite): the real trading process publishes its machines' active
 * states, and the real API serves them at GET /control/machines — running (cycling or waiting)
 * with the order manager accepting, then, after a pause, paused with the order manager halted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openE2e } from './harness.js';
import type { E2e } from './harness.js';

interface Machines {
  published_at: string | null;
  machines: Array<{ id: string; active: string[] }>;
}

describe('the live machine states through tcs start', () => {
  let e: E2e | undefined;
  afterEach(async () => {
    await e?.close();
    e = undefined;
  });

  const active = async (id: string) => {
    const res = await e!.call('GET', '/control/machines');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Machines;
    expect(body.published_at).not.toBeNull();
    return body.machines.find((m) => m.id === id)!.active;
  };

  it('shows the running root and accepting order manager, then paused after a pause', async () => {
    e = await openE2e('sqlite');
    await e.proc.waitFor(/"event":"cycle_end","cycle":1,/, 20_000);
    await vi.waitFor(
      async () => {
        expect(await active('trading')).toContain('trading.control.running');
        expect(await active('order-manager')).toContain('oms.mode.accepting');
      },
      { timeout: 5_000, interval: 50 },
    );

    expect((await e.call('POST', '/control/pause', { reason: 'e2e machines' })).status).toBe(200);
    await vi.waitFor(
      async () => {
        const trading = await active('trading');
        expect(trading).toContain('trading.control.paused');
        expect(trading).not.toContain('trading.control.running');
        expect(await active('order-manager')).toContain('oms.mode.halted');
        expect(await active('cycle')).toEqual([]);
      },
      { timeout: 5_000, interval: 50 },
    );
  }, 60_000);
});

/**
 * A crash mid-submit on the live venue, as real processes against the fake exchange: the exchange
 * takes the trading process's first order and never answers; the process is SIGKILLed while it is
 * still waiting for the answer (looking the order up). The restarted process finds what the order
 * did from the exchange, not from memory — the position it opened is adopted at the start-up
 * reconciliation (no drift) — and the order itself was placed once, never again.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openLiveE2e } from '../support/live-e2e.js';
import type { LiveE2e } from '../support/live-e2e.js';

const LONG = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.js', import.meta.url));

let e: LiveE2e | undefined;

afterAll(async () => {
  await e?.close();
});

describe('a crash mid-submit on the live venue (fake exchange)', () => {
  it('the order was placed once; the restart finds its position on the exchange and adopts it', async () => {
    e = await openLiveE2e('tcs-live-crash-');
    const { t, waitUntil } = e;
    const env = e.env({ STRATEGIES: LONG });
    const orderPosts = () => t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));
    // The first order is carried out and its answer never comes.
    t.fake.faults.neverAnswer('POST', '/fapi/v1/order');
    const first = e.start(['trade'], env);
    await waitUntil(() => orderPosts().length === 1, 20_000, 'the first order sent');
    const placed = t.fake.venue.trades('BTCUSDT');
    expect(placed.length).toBeGreaterThan(0); // it traded on the exchange
    const held = t.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')!.qty;
    expect(held).toBeGreaterThan(0);
    // Still waiting for the answer (ccxt's 10 s deadline): killed mid-submit.
    first.child.kill('SIGKILL');
    await first.exited;
    expect(first.stdout()).not.toMatch(/"event":"order_filled"/);

    const second = e.start(['trade'], env);
    await second.waitFor(/"event":"cycle_end"/, 20_000);
    // Adopted at the start-up reconciliation: the system already holds its target, so no drift and
    // no second order for what the first one did.
    expect(second.stdout()).not.toMatch(/"event":"position_drift"/);
    expect(second.stderr()).toMatch(/live venue: reconciled with the exchange/);
    await second.waitFor(/"event":"cycle_end","cycle":3,/, 20_000);
    const after = t.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')!.qty;
    expect(after).toBeCloseTo(held, 9);
    expect(orderPosts()).toHaveLength(1);
    second.child.kill('SIGTERM');
    await second.exited;
  }, 60_000);
});

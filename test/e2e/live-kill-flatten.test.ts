/**
 * EXECUTION_MODE=live under `tcs start` (the API and the trading process) against the fake exchange:
 * a position changed behind the system's back makes /health degraded, naming the drift; then the kill switch over HTTP with `flatten: true` leaves nothing on the exchange — every open order on
 * the traded symbols cancelled (one of the system's is held there by hand-placing a far order as a
 * stand-in for a resting one) and the position closed reduce-only — and the killed system sends no
 * order after it.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { exchangeClientId } from '../../src/adapters/live-venue/client-ids.js';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { FAKE_CREDENTIALS } from '../support/fake-exchange/server.js';
import { openE2e } from './harness.js';
import type { E2e } from './harness.js';

const LONG = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.js', import.meta.url));

let t: TradingFake | undefined;
let e: E2e | undefined;

afterAll(async () => {
  await e?.close();
  await t?.close();
});

describe('kill switch with flatten on the live venue (fake exchange)', () => {
  it('drift shows in /health; the kill cancels every open order and closes the position on the exchange; nothing is sent after', async () => {
    t = await openTradingFake({ deposit: 100_000, start: Date.now() });
    await t.exchange.loadMarkets();
    e = await openE2e('sqlite', {
      ...liveEnvFor(t.fake.url),
      SYMBOLS: 'BTCUSDT',
      STRATEGIES: LONG,
      RISK_FRACTION: '0.02',
      ORDER_STYLE: 'market',
    });
    const position = () => t!.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT');
    // Long BTC on the exchange.
    await vi.waitFor(() => expect(position()?.qty ?? 0).toBeGreaterThan(0), { timeout: 20_000, interval: 50 });
    // A position changed behind the system's back: /health turns degraded and names it.
    t.fake.venue.setPosition('BTCUSDT', position()!.qty + 0.3);
    await vi.waitFor(
      async () => {
        const health = (await (await e!.call('GET', '/health')).json()) as {
          status: string;
          reason?: string;
          components: { venue: { status: string } };
        };
        expect(health.components.venue.status).toBe('drift');
        expect(health.status).toBe('degraded');
        expect(health.reason).toMatch(/position drift: BTCUSDT holds/);
      },
      { timeout: 15_000, interval: 100 },
    );
    // An order resting on the exchange when the kill comes (placed after the start's reconciliation).
    await t.exchange.createOrder('BTC/USDT:USDT', 'limit', 'buy', 0.2, 1_000, { clientOrderId: 'resting-at-kill' });

    const res = await e.call('POST', '/control/kill-switch', { reason: 'live e2e', flatten: true });
    expect(res.status).toBe(200);
    await vi.waitFor(
      () => {
        expect(t!.fake.venue.open()).toEqual([]);
        expect(position()?.qty ?? 0).toBe(0);
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(t.fake.venue.find('BTCUSDT', { clientOrderId: 'resting-at-kill' })?.status).toBe('CANCELED');
    // The flatten's close went out reduce-only, under its 36-character exchange id.
    // Its line comes once the exchange's answer is back, a moment after the exchange shows the account flat.
    const flattenFill = () =>
      e!.lines().find((l) => l.event === 'order_filled' && String(l.client_order_id).startsWith('flt-'));
    await vi.waitFor(() => expect(flattenFill()).toBeDefined(), { timeout: 10_000, interval: 50 });
    const close = flattenFill()!;
    const sentAs = t.fake.venue.find('BTCUSDT', { clientOrderId: exchangeClientId(String(close.client_order_id)) });
    expect(sentAs).toMatchObject({ reduceOnly: true, status: 'FILLED' });
    const orders = t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'));

    // Killed: a few more cycles' worth of time, and no order reaches the exchange.
    const sent = orders.length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/order'))).toHaveLength(sent);
    expect(e.proc.stdout() + e.proc.stderr()).not.toContain(FAKE_CREDENTIALS.secret);
  }, 60_000);
});

/**
 * Issue 32, item 2: a kill with flatten through an exchange's bad day. `tcs start` in live mode
 * against the fake exchange holds BTC +0.015 and ETH −0.284 (adopted at start); then half of every
 * request to the exchange is answered 503 -1001 (a seeded storm) and the kill switch is pressed with
 * `flatten: true`. Both positions must be closed and every resting order cancelled within 30 s (the
 * issue's aim): the kill's cancels and the flatten are retried per symbol with a backoff of seconds,
 * not every 30 s (the command lease), one symbol's failures never hold up the other's close, and a
 * close answered -1001 ("unable to process") is not looked up for 15 s but sized again at once.
 * Before, no close was sent at all in 180 s; measured now 8.9 s and 10.3 s with this seed.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { openE2e } from './harness.js';
import type { E2e } from './harness.js';

const IDLE = new URL('../fixtures/strategies/plain-agent.js', import.meta.url).pathname;

let t: TradingFake | undefined;
let e: E2e | undefined;

afterAll(async () => {
  await e?.close();
  await t?.close();
});

describe('kill with flatten at 50 % 503s (fake exchange)', () => {
  it('closes a long and a short and cancels what rests, within 30 s of the kill', async () => {
    t = await openTradingFake({ deposit: 100_000, start: Date.now() });
    await t.exchange.loadMarkets();
    t.fake.venue.setPosition('BTCUSDT', 0.015);
    t.fake.venue.setPosition('ETHUSDT', -0.284);
    e = await openE2e('sqlite', {
      ...liveEnvFor(t.fake.url),
      SYMBOLS: 'BTCUSDT,ETHUSDT',
      STRATEGIES: IDLE,
      ORDER_STYLE: 'market',
    });
    // Running: a few cycles ended, so the start's reconciliation adopted both positions.
    await vi.waitFor(() => expect(e!.count('cycle_end')).toBeGreaterThanOrEqual(3), { timeout: 20_000, interval: 50 });
    await t.exchange.createOrder('ETH/USDT:USDT', 'limit', 'buy', 0.1, 1_000, { clientOrderId: 'resting-at-kill' });
    const held = (symbol: string) => t!.fake.venue.account().positions.find((p) => p.symbol === symbol)?.qty ?? 0;
    expect(held('BTCUSDT')).toBe(0.015);
    expect(held('ETHUSDT')).toBe(-0.284);

    const storm = t.fake.faults.storm(0.5, 32);
    const res = await e.call('POST', '/control/kill-switch', { reason: 'storm', flatten: true });
    expect(res.status).toBe(200);
    await vi.waitFor(
      () => {
        expect({ btc: held('BTCUSDT'), eth: held('ETHUSDT'), open: t!.fake.venue.open() }).toEqual({
          btc: 0,
          eth: 0,
          open: [],
        });
      },
      { timeout: 30_000, interval: 100 },
    );
    // The storm did refuse requests on the way (the test is not passing by luck of the draw); the
    // positions are exactly zero, so no close went past flat.
    expect(storm.refused()).toBeGreaterThan(3);
  }, 90_000);
});

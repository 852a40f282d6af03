/**
 * A held dead-man's switch (Bybit's DCP) in the trading process against the fake's Bybit dialect,
 * with the Bybit profile's `disconnectCancel` switched on for this file only (it is null in the
 * registry until checked on Bybit; docs/operate/bybit.md) and a 4 s window: with EXCHANGE_STOPS=false
 * the start sets the window and holds a `dcp.future` connection; a connection that stays down past
 * half the window halts new exposure (`exchange_switch_down`, the cycles refused) and the halt ends
 * when it is back; once the process is gone the fake cancels the account's resting orders after
 * the window. With exchange stops on it is not held: Bybit's DCP may cancel the stop too.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BYBIT, BYBIT_DCP } from '../../src/adapters/exchanges/bybit.js';
import { openTradingFake, placeByHand } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { BYBIT_DIALECT } from '../support/fake-exchange/dialects/bybit/index.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { openLiveTrading, until } from '../support/live-trading.js';
import type { LiveTrading } from '../support/live-trading.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const WINDOW_MS = 4_000;
const profile = BYBIT as { disconnectCancel?: typeof BYBIT.disconnectCancel };
profile.disconnectCancel = { ...BYBIT_DCP, windowMs: WINDOW_MS };

let t: TradingFake | undefined;
let s: TestStore | undefined;
let trading: LiveTrading | undefined;

afterEach(async () => {
  await stopTrading();
  await s?.cleanup();
  s = undefined;
  await t?.close();
  t = undefined;
});

/** Stops the trading process (once: afterEach closes only what is still open). */
async function stopTrading() {
  const running = trading;
  trading = undefined;
  await running?.close();
}

afterAll(() => {
  profile.disconnectCancel = null;
});

async function start(stops: boolean) {
  // The fake's clock is the wall clock until the test steps it.
  t = await openTradingFake({ dialect: BYBIT_DIALECT, deposit: 100_000, start: Date.now() });
  s = await openTestStore('sqlite');
  trading = await openLiveTrading(s.store, s.url, {
    ...liveEnvFor(t.fake.url, 'bybit'),
    SYMBOLS: 'BTCUSDT',
    EXCHANGE_TIMEOUT_MS: '1000',
    EXCHANGE_STOPS: String(stops),
  });
  return { t, trading };
}

describe("Bybit's DCP held by the trading process", () => {
  it('holds dcp.future, halts new exposure while it stays down, resumes when back; gone, the fake cancels after the window', async () => {
    const { t, trading } = await start(false);
    const dcp = () => t.fake.privateSocket!.subscribed('dcp.future');
    const cycles = () => trading.lines.filter((l) => l.event === 'cycle_start').length;
    await until(() => cycles() >= 2 && dcp() === 1, 'cycles with the switch held');
    expect(t.fake.calls.some((c) => c.method === 'POST' && c.url === '/v5/order/disconnected-cancel-all')).toBe(true);

    t.fake.privateSocket!.refuse(true);
    t.fake.privateSocket!.drop();
    await until(() => trading.halt() === 'exchange_switch_down', 'the switch-down halt');
    expect(trading.haltMessage()).toMatch(/dead-man's switch connection has been down \d+ ms \(grace 2000 ms/);

    t.fake.privateSocket!.refuse(false);
    await until(() => trading.halt() === null && dcp() === 1, 'the halt ended, the switch held again');
    const after = cycles();
    await until(() => cycles() > after, 'cycles again');

    // The process lets go; an order rests on the account; the window runs from the disconnection.
    await stopTrading();
    await until(() => dcp() === 0, 'the connection gone');
    await t.exchange.loadMarkets();
    const far = Math.round(t.fake.venue.book(t.fake.venue.instrument('BTCUSDT')).bids[0]![0] * 0.5);
    await placeByHand(t.exchange, 'BTC/USDT:USDT', 'buy', 0.01, far, 'restingAfter1');
    const status = () => t.fake.venue.find('BTCUSDT', { clientOrderId: 'restingAfter1' })?.status;
    t.advance(WINDOW_MS - 1_500);
    expect(status()).toBe('NEW');
    t.advance(1_500);
    expect(status()).toBe('CANCELED');
  }, 30_000);

  it('is not held while exchange stops may rest (it would cancel them after a crash)', async () => {
    const { t, trading } = await start(true);
    await until(() => trading.lines.filter((l) => l.event === 'cycle_start').length >= 2, 'cycles');
    expect(t.fake.privateSocket!.subscribed('dcp.future')).toBe(0);
    expect(t.fake.calls.some((c) => c.url === '/v5/order/disconnected-cancel-all')).toBe(false);
  }, 30_000);
});

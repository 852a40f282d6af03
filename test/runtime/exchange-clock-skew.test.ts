/**
 * Issue 32, item 5: a local clock 3 s ahead of the exchange's (-1021 on every signed request) left a
 * running trader unable to trade with no halt and /health ok. A live trading system (this process,
 * the fake exchange in it, whose clock the test steps) halts `exchange_clock_skew` when its clock is
 * more than half the recvWindow off the exchange's, and the halt ends once the clocks agree again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { openLiveTrading, until } from '../support/live-trading.js';
import type { LiveTrading } from '../support/live-trading.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

let t: TradingFake | undefined;
let s: TestStore | undefined;
let trading: LiveTrading | undefined;

afterAll(async () => {
  await trading?.close();
  await s?.cleanup();
  await t?.close();
});

describe('the clock against the exchange’s while trading', () => {
  it('halts exchange_clock_skew when the exchange’s clock is 6 s behind, and ends the halt when it is back', async () => {
    // The fake's clock is the wall clock until the test steps it.
    t = await openTradingFake({ deposit: 100_000, start: Date.now() });
    s = await openTestStore('sqlite');
    trading = await openLiveTrading(s.store, s.url, {
      ...liveEnvFor(t.fake.url),
      SYMBOLS: 'BTCUSDT',
      EXCHANGE_TIMEOUT_MS: '1000',
    });
    const cycles = () => trading!.lines.filter((l) => l.event === 'cycle_start').length;
    await until(() => cycles() >= 2, 'two cycles');

    // The exchange's clock steps 6 s back: the local one is now 6 s ahead (more than half the 10 s
    // recvWindow), and every signed request is refused -1021.
    t.advance(-6_000);
    await until(() => trading!.halt() === 'exchange_clock_skew', 'the clock skew halt');
    expect(trading.haltMessage()).toMatch(/the local clock is 6\.\d s ahead of the exchange's/);

    t.advance(6_000);
    await until(() => trading!.halt() === null, 'the halt ended');
    const ended = trading.lines.findIndex((l) => l.event === 'trading_halt_ended');
    expect(ended).toBeGreaterThan(-1);
  }, 30_000);
});

/**
 * Issue 32, item 3: Binance bans an IP, not a client. A live trading system (this process, the fake
 * exchange in it) has two ccxt clients, the venue's and the live market feed's. Once either is
 * answered 418, the other must not send into the ban (a fresh-clone CI run saw a public read answered
 * 418 81 ms after the halt): one request gate per exchange account, installed on both clients, and
 * the ban a halt whichever client learned of it.
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

describe('one request gate for the venue and the live feed', () => {
  it('a ban the feed learned of halts trading and holds back the venue’s signed requests', async () => {
    // The fake's clock is the wall clock: the system signs requests with it.
    t = await openTradingFake({ deposit: 100_000, start: Date.now() });
    s = await openTestStore('sqlite');
    trading = await openLiveTrading(s.store, s.url, {
      ...liveEnvFor(t.fake.url),
      SYMBOLS: 'BTCUSDT',
      EXCHANGE_TIMEOUT_MS: '1000',
    });
    const cycles = () => trading!.lines.filter((l) => l.event === 'cycle_start').length;
    await until(() => cycles() >= 2, 'two cycles');

    // The ban begins with the next public request (the feed's market data read at a cycle's start):
    // the feed's client learns of it first.
    t.fake.faults.banFor(60, 'public');
    await until(() => trading!.halt() === 'exchange_banned', 'the ban halt');
    expect(t.fake.faults.bansAnswered('public')).toBeGreaterThanOrEqual(1);
    // The venue's account reads, countdown and probe go through the same gate: none was sent into the
    // ban (today's venue, with a gate of its own, learns of it only from its own 418s).
    expect(t.fake.faults.bansAnswered('signed')).toBe(0);
  }, 30_000);
});

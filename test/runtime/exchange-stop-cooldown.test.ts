/**
 * Issue 32 (gaps): a stop the exchange itself triggered starts COOLDOWN_AFTER_STOP, as a stop fired
 * by the process does. A live trading system (this process; the real live feed and venue through
 * ccxt) against the fake exchange holds an always-long BTC position with its close-position stop
 * resting; the fake's mark falls through the stop (its candles do not move, so the process's own
 * stop never fires): the exchange closes the position, the stop's fill comes in, and the strategy's
 * next signals are skipped COOLDOWN instead of reopening at once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { isExchangeStopId } from '../../src/domain/exchange-stops.js';
import { instrumentById } from '../support/fake-exchange/market-data.js';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { openLiveTrading, until } from '../support/live-trading.js';
import type { LiveTrading } from '../support/live-trading.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const btc = instrumentById('BTCUSDT')!;

let t: TradingFake | undefined;
let s: TestStore | undefined;
let trading: LiveTrading | undefined;

afterAll(async () => {
  await trading?.close();
  await s?.cleanup();
  await t?.close();
});

describe('an exchange stop that triggered', () => {
  it('starts the cooldown: the strategy does not reopen at once', async () => {
    t = await openTradingFake({ deposit: 100_000, start: Date.now() });
    s = await openTestStore('sqlite');
    trading = await openLiveTrading(s.store, s.url, {
      ...liveEnvFor(t.fake.url),
      SYMBOLS: 'BTCUSDT',
      ORDER_STYLE: 'market',
      STOP_LOSS: '0.02',
      COOLDOWN_AFTER_STOP: '1000',
    });
    const held = () => t!.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;
    const stops = () => t!.fake.venue.algo.open('BTCUSDT');
    await until(() => held() > 0 && stops().length === 1, 'a long with its stop on the exchange', 20_000);

    t.fake.venue.setPrice('BTCUSDT', t.fake.venue.mark(btc) * 0.95);
    await until(
      () => trading!.lines.some((l) => l.event === 'order_filled' && isExchangeStopId(l.client_order_id as string)),
      "the exchange stop's fill reported",
    );
    expect(held()).toBe(0);
    const decisions = async () =>
      (await s!.store.events.query({ kind: 'decision', limit: 5 })).map(
        (e) => e.body as { proposals: { skipped: { code: string } | null }[] },
      );
    await until(
      async () => (await decisions()).some((d) => d.proposals.some((p) => p.skipped?.code === 'COOLDOWN')),
      'a signal skipped COOLDOWN',
    );
    // Still flat: nothing reopened while the cooldown runs.
    expect(held()).toBe(0);
  }, 40_000);
});

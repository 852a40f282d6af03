/**
 * Issue 32 (gaps): a trailing stop moved on the exchange, end to end. A live trading system (this
 * process; the live venue through ccxt against the fake exchange, market data from the test so the
 * bars can rise) holds an always-long BTC position with TRAILING_STOP set. The price rises over
 * cycles: the exchange stop is replaced at a higher trigger (best − 2 % of the entry) and the old
 * one is gone, one stop left. Binance allows one close-position stop per direction (-4130, as the
 * fake answers), so a move is a cancel then a place; the gap between the two is measured: the
 * place is the very next request for that stop, sent within the same cycle.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { barsFromRows } from '../../src/domain/bars.js';
import type { MarketFeed } from '../../src/ports/market-feed.js';
import { marketView, snapshot } from '../machines/support.js';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { instrumentById } from '../support/fake-exchange/market-data.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { openLiveTrading, until } from '../support/live-trading.js';
import type { LiveTrading } from '../support/live-trading.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const btc = instrumentById('BTCUSDT')!;
const BTC = { symbol: 'BTCUSDT', kind: 'perp' as const, lotSize: 0.001, tickSize: 0.1, minNotional: 5 };

let t: TradingFake | undefined;
let s: TestStore | undefined;
let trading: LiveTrading | undefined;

afterAll(async () => {
  await trading?.close();
  await s?.cleanup();
  await t?.close();
});

describe('a trailing stop on the exchange', () => {
  it('moves up with the price: the old stop cancelled, one new stop placed right after at the higher trigger', async () => {
    t = await openTradingFake({ deposit: 100_000, start: Date.now() });
    let price = t.fake.venue.mark(btc);
    // One closed bar a cycle at the current price: its high is what the trailing stop follows.
    const feed: MarketFeed = {
      instruments: [BTC],
      next: async () => {
        const now = Date.now();
        const bars = barsFromRows([
          { time: now - 60_000, open: price, high: price, low: price, close: price, volume: 1_000 },
        ]);
        return marketView(snapshot('BTCUSDT', price, { ts: now, bars, fundingRate: 0 }));
      },
    };
    s = await openTestStore('sqlite');
    trading = await openLiveTrading(
      s.store,
      s.url,
      { ...liveEnvFor(t.fake.url), SYMBOLS: 'BTCUSDT', ORDER_STYLE: 'market', TRAILING_STOP: '0.02' },
      feed,
    );
    const held = () => t!.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;
    const stops = () => t!.fake.venue.algo.open('BTCUSDT');
    await until(() => held() > 0 && stops().length === 1, 'a long with its stop on the exchange', 20_000);
    const entry = t.fake.venue.ledger.position('BTCUSDT').entryPrice;
    const [first] = stops();
    expect(first!.triggerPrice).toBeCloseTo(entry * 0.98, 0);

    // The price rises 5 % over a few cycles (the exchange's mark with it, so the stop never triggers).
    for (const step of [1.01, 1.02, 1.03, 1.04, 1.05]) {
      price = entry * step;
      t.fake.venue.setPrice('BTCUSDT', price);
      const before = trading.lines.filter((l) => l.event === 'cycle_end').length;
      await until(() => trading!.lines.filter((l) => l.event === 'cycle_end').length >= before + 2, 'two cycles');
    }
    const best = entry * 1.05;
    await until(() => Math.abs((stops()[0]?.triggerPrice ?? 0) - (best - 0.02 * entry)) < 1, 'the stop at the top');
    const left = stops();
    expect(left).toHaveLength(1);
    expect(left[0]!.triggerPrice).toBeGreaterThan(first!.triggerPrice);
    expect(left.map((o) => o.algoId)).not.toContain(first!.algoId);
    expect(held()).toBeGreaterThan(0);

    // Every move: the cancel of the old stop, then at once the place of the new one (nothing of the
    // stop's in between), and never two resting at once (the fake would answer -4130).
    const algo = t.fake.calls.filter((c) => c.url.startsWith('/fapi/v1/algoOrder') && c.method !== 'GET');
    const moves = algo.flatMap((c, i) => (c.method === 'DELETE' ? [[c, algo[i + 1]] as const] : []));
    expect(moves.length).toBeGreaterThanOrEqual(1);
    for (const [cancel, place] of moves) {
      expect(place?.method).toBe('POST');
      expect(place!.at - cancel.at).toBeLessThan(1_000);
    }
    const gaps = moves.map(([cancel, place]) => Math.round(place!.at - cancel.at));
    console.log(`exchange stop moves: ${moves.length}, cancel → place gaps (ms): ${gaps.join(', ')}`);
    expect(trading.lines.some((l) => l.event === 'trading_halted')).toBe(false);
  }, 60_000);
});

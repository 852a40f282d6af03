/**
 * A trailing stop through the whole trading system, across a restart (issue 20, item 4): the best
 * price since entry is stored in the fenced key-value store (trading:protection) and read by the
 * next process, so a fall from the best price the last process saw still exits, with its
 * position_exit line (order_filled keeps its own fields) and the exit in the decision entry.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { barsFromRows } from '../../src/domain/bars.js';
import type { MarketFeed } from '../../src/ports/market-feed.js';
import { marketView, snapshot } from '../machines/support.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

const BTC = { symbol: 'BTCUSDT', kind: 'perp' as const, lotSize: 0.001, tickSize: 0.1, minNotional: 5 };

/** A feed that plays [high, low, close] bars, one per call, then repeats the last. */
function scripted(bars: [number, number, number][]): MarketFeed {
  let i = 0;
  return {
    instruments: [BTC],
    next: async (now) => {
      const [high, low, close] = bars[Math.min(i++, bars.length - 1)]!;
      const bar = barsFromRows([{ time: now - 60_000, open: close, high, low, close, volume: 1_000 }]);
      return marketView(snapshot('BTCUSDT', close, { ts: now, bars: bar, fundingRate: 0 }));
    },
  };
}

const ENV = {
  SYMBOLS: 'BTCUSDT',
  ORDER_STYLE: 'market',
  RISK_FRACTION: '0.01',
  TRAILING_STOP: '0.02',
  COOLDOWN_AFTER_STOP: '5',
};

describe('trailing stop across a restart', () => {
  let t: TestTrading | undefined;
  let store: TestStore | undefined;
  afterEach(async () => {
    await t?.close();
    await store?.cleanup();
    t = store = undefined;
  });

  it('exits from the best price the previous process saw', async () => {
    store = await openTestStore('sqlite');
    // First process: buys at about 100 in its first cycle (run at start), then sees a bar up to 110
    // whose low stays above the trailing stop (110 − 2 % of the entry ≈ 108).
    t = await openTestTrading('sqlite', ENV, store, {
      feed: scripted([
        [100, 100, 100],
        [110, 108.5, 109.5],
      ]),
    });
    await t.advance(t.config.cycleMs);
    const held = (await t.system.venue.account()).positions.find((p) => p.symbol === 'BTCUSDT');
    expect(held?.qty).toBeGreaterThan(0);
    expect(t.events('position_exit')).toEqual([]);
    await t.close();
    // Second process: a bar down to 107.5 crosses 108; from the entry (100) alone it would be 98.
    t = await openTestTrading('sqlite', ENV, store, { feed: scripted([[108.5, 107.5, 107.8]]) });
    const [exit] = t.events('position_exit');
    expect(exit).toMatchObject({
      event: 'position_exit',
      symbol: 'BTCUSDT',
      reason: 'trailing_stop',
      agent: 'btc_always_long',
      side: 'SELL',
      qty: held!.qty,
    });
    expect(exit!.entry_price).toBe(held!.entryPrice);
    expect(exit!.trigger_price).toBeCloseTo(110 - 0.02 * held!.entryPrice, 9);
    const filled = t.events('order_filled').find((l) => l.client_order_id === exit!.client_order_id);
    expect(Object.keys(filled!)).toEqual([
      'event',
      'symbol',
      'side',
      'qty',
      'price',
      'fee',
      'liquidity',
      'client_order_id',
      'spread_cost',
      'slippage_cost',
    ]);
    expect((await t.system.venue.account()).positions.filter((p) => p.qty !== 0)).toEqual([]);
    // The same agent is kept out by the cooldown on the next cycle, with the reason recorded.
    await t.advance(t.config.cycleMs);
    const [latest] = await t.store.events.query({ kind: 'decision', limit: 1 });
    const body = latest!.body as { proposals: { skipped: { code: string } | null }[] };
    expect(body.proposals.map((p) => p.skipped?.code)).toEqual(['COOLDOWN']);
  });
});

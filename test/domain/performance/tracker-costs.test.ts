// Itemised costs in the summary (issue 34, item 4): fees, spread (vs mid) and slippage per symbol and
// in total, from each fill's own figures; fills without costs (maker, liquidation) add only their fee.
import { describe, expect, it } from 'vitest';
import type { TradeObservation } from '../../../src/domain/performance/observations.js';
import { createPerformanceTracker } from '../../../src/domain/performance/tracker.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

function fill(symbol: string, side: 'BUY' | 'SELL', extra: Partial<TradeObservation> = {}): TradeObservation {
  return {
    ts: T0,
    clientOrderId: `o-${symbol}-${side}`,
    symbol,
    side,
    qty: 1,
    price: 100,
    fee: 0.05,
    liquidity: 'taker',
    strategy: 'alpha',
    kind: 'order',
    ...extra,
  };
}

describe('summary costs', () => {
  it('adds up fees, spread and slippage per symbol and in total; a fill without costs adds only its fee', () => {
    const t = createPerformanceTracker({
      startingCash: 1_000,
      cycleMs: DAY,
      symbols: ['BTC', 'ETH'],
      strategies: ['alpha'],
    });
    t.trade(fill('BTC', 'BUY', { spreadCost: 0.5, slippageCost: 0.1 }));
    t.trade(fill('BTC', 'SELL', { spreadCost: 0.25, slippageCost: 0.2, fee: 0.04 }));
    t.trade(fill('ETH', 'BUY', { liquidity: 'maker', fee: 0.02 }));
    t.cycle({ ts: T0 + DAY, nav: 998, cash: 998, positions: [], fundingPnl: 0, feesPaid: 0.11, marks: {} });
    const s = t.summary();
    expect(s.costs).toEqual({
      fees: 0.11,
      spread: 0.75,
      slippage: 0.3,
      total: 1.16,
      by_symbol: {
        BTC: { fees: 0.09, spread: 0.75, slippage: 0.3, total: 1.14 },
        ETH: { fees: 0.02, spread: 0, slippage: 0, total: 0.02 },
      },
    });
  });

  it('a run without fills has zero costs', () => {
    const t = createPerformanceTracker({ startingCash: 1_000, cycleMs: DAY, symbols: [], strategies: [] });
    expect(t.summary().costs).toEqual({ fees: 0, spread: 0, slippage: 0, total: 0, by_symbol: {} });
  });
});

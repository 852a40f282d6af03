/**
 * Builders for risk tests: a plain account, market and order that pass every guard with the default
 * limits, so each table row changes only the figure it is about.
 */
import { barsFromCloses } from '../../../src/domain/bars.js';
import type { MarketSnapshot } from '../../../src/domain/market.js';
import type { OrderRequest } from '../../../src/domain/orders.js';
import type { AccountSnapshot, Position } from '../../../src/domain/portfolio.js';

/** BTC at 100 (bid 99.9, ask 100.1), 10 × 10 qty on each side, 1000 traded (100 000 notional). */
export function market(overrides: Partial<MarketSnapshot> = {}): MarketSnapshot {
  return {
    symbol: 'BTCUSDT',
    ts: 1_700_000_000_000,
    last: 100,
    bid: 99.9,
    ask: 100.1,
    bids: Array.from({ length: 10 }, (_, i) => ({ price: 99.9 - i * 0.1, qty: 10 })),
    asks: Array.from({ length: 10 }, (_, i) => ({ price: 100.1 + i * 0.1, qty: 10 })),
    bars: barsFromCloses([100]),
    volume: 1000,
    fundingRate: 0.0001,
    nextFundingTs: 1_700_000_000_000 + 3_600_000,
    ...overrides,
  };
}

export function position(symbol: string, qty: number, markPrice: number): Position {
  return { symbol, kind: 'perp', qty, entryPrice: markPrice, markPrice, unrealizedPnl: 0, realizedPnl: 0 };
}

/** NAV 10 000 at its peak, flat. */
export function account(overrides: Partial<AccountSnapshot> = {}): AccountSnapshot {
  return {
    nav: 10_000,
    peakNav: 10_000,
    cash: 10_000,
    realizedPnl: 0,
    unrealizedPnl: 0,
    fundingPnl: 0,
    feesPaid: 0,
    positions: [],
    openOrders: [],
    ts: 1_700_000_000_000,
    ...overrides,
  };
}

/** BUY 1 BTCUSDT at market: 100.1 notional. */
export function order(overrides: Partial<OrderRequest> = {}): OrderRequest {
  return {
    clientOrderId: 's1-1-BTCUSDT-0',
    symbol: 'BTCUSDT',
    side: 'BUY',
    qty: 1,
    type: 'market',
    limitPrice: null,
    reduceOnly: false,
    ...overrides,
  };
}

/**
 * BTC at 100 with bid = ask = last and 100 on each side at 100: an order costs nothing to cross, so
 * tables about the guards' arithmetic read round figures (with no fee rate, the NAV after = before).
 */
export function freeMarket(overrides: Partial<MarketSnapshot> = {}): MarketSnapshot {
  const last = overrides.last ?? 100;
  return market({
    bid: last,
    ask: last,
    bids: [{ price: last, qty: 100 }],
    asks: [{ price: last, qty: 100 }],
    ...overrides,
  });
}

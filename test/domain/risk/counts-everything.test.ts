// Reproductions from issue 7 that concern the risk engine, each a failing test on the code before it:
// the guards read positions only (resting orders ignored), two orders of one cycle each passing alone
// but together breaking a limit, and a reduce-only close blocked by the liquidity guard.
import { describe, expect, it } from 'vitest';
import { review } from '../../../machines/risk.machine.js';
import type { OrderRequest, VenueOrder } from '../../../src/domain/orders.js';
import { signApproval } from '../../../src/domain/order-token.js';
import { DEFAULT_RISK_LIMITS, evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, freeMarket, order, position } from './builders.js';

/** A resting limit order at the venue (open, nothing filled yet). */
function resting(overrides: Partial<OrderRequest>, filledQty = 0): VenueOrder {
  const request = order({ type: 'limit', limitPrice: 100, ...overrides });
  return { ...request, status: 'open', filledQty, avgFillPrice: null, createdAt: 0, updatedAt: 0 };
}

// NAV 10 000, BTC at 100: 1 BTC is 0.01× NAV. Default limits: 0.5× per symbol, 1.5× net, 3× gross.
describe('the guards count resting orders (worst case: every order on the side filling)', () => {
  it.each([
    {
      name: 'resting buys of 45 BTC + a 10 BTC buy: 0.55× > 0.5×',
      openOrders: [resting({ clientOrderId: 'r1', qty: 30 }), resting({ clientOrderId: 'r2', qty: 15 })],
      positions: [],
      side: 'BUY' as const,
      qty: 10,
      code: 'EXPOSURE_SYMBOL',
      after: 0.55,
    },
    {
      name: 'a partly filled resting buy counts only its remainder: 0.4 + 0.05 + 0.05 = 0.5× passes',
      openOrders: [resting({ clientOrderId: 'r1', qty: 10 }, 5)],
      positions: [position('BTCUSDT', 40, 100)],
      side: 'BUY' as const,
      qty: 5,
      code: 'OK',
      after: 0.5,
    },
    {
      name: 'resting sells do not offset a buy: long 40 + 5 buy, 30 resting to sell → 0.45× passes',
      openOrders: [resting({ clientOrderId: 'r1', side: 'SELL', qty: 30 })],
      positions: [position('BTCUSDT', 40, 100)],
      side: 'BUY' as const,
      qty: 5,
      code: 'OK',
      after: 0.45,
    },
    {
      name: 'resting ETH buys of 1.45× NAV count in the net figure: a 0.1× BTC buy breaks 1.5×',
      openOrders: [resting({ clientOrderId: 'r1', symbol: 'ETHUSDT', qty: 72.5, limitPrice: 200 })],
      positions: [],
      side: 'BUY' as const,
      qty: 10,
      code: 'EXPOSURE_TOTAL',
      after: 1.55,
    },
  ])('$name', ({ openOrders, positions, side, qty, code, after }) => {
    const decision = evaluateOrder(order({ side, qty }), {
      account: account({ openOrders, positions }),
      market: freeMarket(),
    });
    expect(decision.checks[3].code).toBe(code);
    const figures = decision.impact!.after;
    expect(code === 'EXPOSURE_TOTAL' ? figures.totalExposure : figures.symbolExposure).toBeCloseTo(after, 9);
    expect(decision.impact!.restingCounted).toBe(openOrders.length);
  });

  it('resting orders count toward leverage: 2.9× gross resting + a 0.2× order > 3×', () => {
    const openOrders = [
      resting({ clientOrderId: 'r1', symbol: 'ETHUSDT', side: 'BUY', qty: 75, limitPrice: 200 }), // 1.5×
      resting({ clientOrderId: 'r2', symbol: 'SOLUSDT', side: 'SELL', qty: 140, limitPrice: 100 }), // 1.4×
    ];
    const decision = evaluateOrder(order({ qty: 20 }), {
      account: account({ openOrders }),
      market: freeMarket(),
      limits: { ...DEFAULT_RISK_LIMITS, maxTotalExposure: 10 },
    });
    expect(decision.checks[1]).toMatchObject({ passed: false, code: 'LEVERAGE_LIMIT' });
    expect(decision.impact!.after.leverage).toBeCloseTo(3.1, 9);
  });
});

describe('the orders of one cycle are judged one after another against the running projection', () => {
  const sign = (o: OrderRequest, epoch: number, expiresAt: number) =>
    signApproval(o, { secret: 'test-secret-test-secret-test-secret', epoch, expiresAt });
  const view = new Map([
    ['BTCUSDT', freeMarket()],
    ['ETHUSDT', freeMarket({ symbol: 'ETHUSDT' })],
  ]);

  it.each([
    {
      name: 'long 0.2× BTC, two 0.2× BTC buys: each passes alone, together 0.6× > 0.5×',
      orders: [order({ clientOrderId: 'a', qty: 20 }), order({ clientOrderId: 'b', qty: 20 })],
      positions: [position('BTCUSDT', 20, 100)],
      code: 'EXPOSURE_SYMBOL',
    },
    {
      name: 'long 1.2× elsewhere; BTC 0.2× and ETH 0.2× buys: each passes alone, together net 1.6× > 1.5×',
      orders: [order({ clientOrderId: 'a', qty: 20 }), order({ clientOrderId: 'b', symbol: 'ETHUSDT', qty: 20 })],
      positions: [position('SOLUSDT', 120, 100)],
      code: 'EXPOSURE_TOTAL',
    },
  ])('$name', ({ orders, positions, code }) => {
    const acct = account({ positions: positions ?? [] });
    for (const o of orders) {
      const alone = evaluateOrder(o, { account: acct, market: view.get(o.symbol)! });
      expect(alone.approved).toBe(true);
    }
    const reply = review(
      { limits: DEFAULT_RISK_LIMITS, tokenTtlMs: 1000, sign },
      { type: 'risk.evaluate', cycle: 1, orders, account: acct, market: view, epoch: 1, now: 0, replyTo: null! },
    );
    expect(reply.verdicts.map((v) => v.decision.approved)).toEqual([true, false]);
    expect(reply.verdicts[1]!.decision.checks[3].code).toBe(code);
    expect(reply.verdicts[1]!.decision.impact!.pendingCounted).toBe(1);
  });
});

describe('closing is never refused outright', () => {
  it('a reduce-only close too big for the book is approved, scaled to the liquidity limit', () => {
    // Long 100 BTC; the bids show 100 in total, so 25 is the depth limit (25 %).
    const reply = review(
      {
        limits: DEFAULT_RISK_LIMITS,
        tokenTtlMs: 1000,
        sign: (o, epoch, expiresAt) =>
          signApproval(o, { secret: 'test-secret-test-secret-test-secret', epoch, expiresAt }),
        instruments: [{ symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 }],
      },
      {
        type: 'risk.evaluate',
        cycle: 1,
        orders: [order({ side: 'SELL', qty: 100, reduceOnly: true })],
        account: account({ positions: [position('BTCUSDT', 100, 100)], nav: 5_000 }),
        market: new Map([['BTCUSDT', freeMarket()]]),
        epoch: 1,
        now: 0,
        replyTo: null!,
      },
    );
    const [verdict] = reply.verdicts;
    expect(verdict!.decision.approved).toBe(true);
    expect(verdict!.approval!.order.qty).toBe(25);
    expect(verdict!.order.qty).toBe(25);
  });

  it.each([
    { name: 'drawdown 30 % against 10 %', nav: 7_000, peakNav: 10_000, qty: 10 },
    { name: 'leverage 8× against 3×, exposure 8× against 0.5×', nav: 1_000, peakNav: 1_000, qty: 10 },
  ])('a reduce-only order passes drawdown, leverage and exposure: $name', ({ nav, peakNav, qty }) => {
    const decision = evaluateOrder(order({ side: 'SELL', qty, reduceOnly: true }), {
      account: account({ nav, peakNav, positions: [position('BTCUSDT', 80, 100)] }),
      market: freeMarket(),
    });
    expect(decision.approved).toBe(true);
    expect(decision.checks.map((c) => c.passed)).toEqual([true, true, true, true]);
  });
});

// Reproductions from issue 20 (item 5), each a failing test on the code before it: the limits were
// judged with the NAV before the order, so the fee and the spread an order pays took leverage and
// symbol exposure past their limits once it filled; and the liquidity limit was per order, so two
// orders of one cycle on the same side each took the whole allowed share of the book.
import { describe, expect, it } from 'vitest';
import { review } from '../../../machines/risk.machine.js';
import { signApproval } from '../../../src/domain/order-token.js';
import { DEFAULT_RISK_LIMITS, evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, market, order, position } from './builders.js';

const FEE = 0.0005;

// NAV 10 000, BTC last 100, ask 100.1 (10 levels of 10, 0.1 apart), bid 99.9.
describe('ratios count the fee and the cost of crossing the spread', () => {
  it('a buy to exactly 3× NAV at last is refused: after its fee and spread the leverage is above 3', () => {
    // 300 BTC is 3× NAV at last; the book must hold it so the walk stays on the visible levels.
    const m = market({ asks: [{ price: 100.1, qty: 1_000 }], volume: 1e9 });
    const limits = { ...DEFAULT_RISK_LIMITS, maxSymbolExposure: 10, maxTotalExposure: 10, maxDepthFraction: 1 };
    const decision = evaluateOrder(order({ qty: 300 }), { account: account(), market: m, limits, feeRate: FEE });
    const leverage = decision.checks[1];
    // fee 300 × 100.1 × 0.0005 = 15.015, spread 300 × 0.1 = 30: NAV after 9 954.985.
    expect(leverage.metrics.navAfter).toBeCloseTo(10_000 - 15.015 - 30, 9);
    expect(leverage.value).toBeCloseTo(30_000 / 9_954.985, 9);
    expect(leverage.code).toBe('LEVERAGE_LIMIT');
    expect(decision.approved).toBe(false);
  });

  it('a buy to exactly 0.5× NAV in one symbol is refused: 0.5004× after its costs', () => {
    const m = market({ volume: 1e9 });
    const limits = { ...DEFAULT_RISK_LIMITS, maxDepthFraction: 1 };
    const decision = evaluateOrder(order({ qty: 50 }), { account: account(), market: m, limits, feeRate: FEE });
    const exposure = decision.checks[3];
    expect(exposure.code).toBe('EXPOSURE_SYMBOL');
    expect(exposure.value!).toBeGreaterThan(0.5);
  });

  it('the order is valued at the price walking the visible book, not at the best quote', () => {
    // 25 BTC takes 10 @ 100.1, 10 @ 100.2, 5 @ 100.3: average 100.18.
    const decision = evaluateOrder(order({ qty: 25 }), { account: account(), market: market({ volume: 1e9 }) });
    expect(decision.impact!.price).toBeCloseTo(100.18, 9);
    expect(decision.impact!.notional).toBeCloseTo(2_504.5, 9);
  });

  it('a reduce-only close still passes whatever it costs', () => {
    const a = account({ nav: 1_000, peakNav: 10_000, positions: [position('BTCUSDT', 30, 100)] });
    const decision = evaluateOrder(order({ side: 'SELL', qty: 30, reduceOnly: true }), {
      account: a,
      market: market({ volume: 1e9 }),
      feeRate: FEE,
    });
    expect(decision.approved).toBe(true);
  });
});

describe('depth taken earlier in the cycle counts against the liquidity limit', () => {
  const limits = { ...DEFAULT_RISK_LIMITS, maxSymbolExposure: 10, maxTotalExposure: 10, maxLeverage: 10 };
  // 100 on the bid side: 25 % is 25.
  const m = market({ volume: 1e9, bids: [{ price: 99.9, qty: 100 }] });

  it('a second SELL of the cycle gets only what the first left of the 25 % share', () => {
    const first = order({ clientOrderId: 'a', side: 'SELL', qty: 20 });
    const second = order({ clientOrderId: 'b', side: 'SELL', qty: 20 });
    const decision = evaluateOrder(second, {
      account: account(),
      market: m,
      limits,
      pending: [{ order: first, price: 99.9 }],
    });
    const liquidity = decision.checks[2];
    expect(liquidity.code).toBe('LIQUIDITY_DEPTH');
    expect(liquidity.value).toBe(40);
    expect(liquidity.limit).toBe(25);
  });

  it('the risk actor judges a flip (close, then open) against what the close took', () => {
    const a = account({ positions: [position('BTCUSDT', 25, 100)] });
    const close = order({ clientOrderId: 'c', side: 'SELL', qty: 25, reduceOnly: true });
    const open = order({ clientOrderId: 'o', side: 'SELL', qty: 25 });
    const reply = review(
      {
        limits,
        tokenTtlMs: 10_000,
        sign: (o, epoch, expiresAt) => signApproval(o, { secret: 's'.repeat(32), epoch, expiresAt }),
      },
      {
        type: 'risk.evaluate',
        cycle: 1,
        epoch: 1,
        now: m.ts,
        account: a,
        market: new Map([['BTCUSDT', m]]),
        orders: [close, open],
        replyTo: undefined as never,
      },
    );
    const [c, o] = reply.verdicts;
    expect(c!.approval).not.toBeNull();
    expect(o!.approval).toBeNull();
    expect(o!.decision.checks[2].code).toBe('LIQUIDITY_DEPTH');
  });
});

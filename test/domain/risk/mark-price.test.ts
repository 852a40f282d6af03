// MARK_PRICE=close in the risk engine and the allocator (issue 34, item 4): the venue marks positions
// at the last price, so the engine values the order's symbol (and its cost of crossing) at the same
// price, and the exposure it approves is the exposure the account reports once the order fills.
import { describe, expect, it } from 'vitest';
import type { MarkPrice } from '../../../src/domain/market.js';
import { allocate } from '../../../src/domain/allocation.js';
import { DEFAULT_RISK_LIMITS, evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { openHarness, PERP, snapshot, view } from '../../adapters/paper-venue/fixtures.js';
import { account, order } from './builders.js';

const FEE = 0.0005;
// Bid 99.9, ask 100.1 (mid 100); the last trade at 99.95.
const m = { ...snapshot({ bid: 99.9, ask: 100.1, asks: [{ price: 100.1, qty: 100_000 }] }), last: 99.95, volume: 1e9 };
const limits = { ...DEFAULT_RISK_LIMITS, maxDepthFraction: 1 };

const judge = (qty: number, markPrice: MarkPrice) =>
  evaluateOrder(order({ symbol: PERP.symbol, qty }), {
    account: account(),
    market: m,
    limits,
    feeRate: FEE,
    tickSize: PERP.tickSize,
    markPrice,
  });

describe('MARK_PRICE in the risk engine', () => {
  it('values the order at the mark the venue will use: the mid by default, the last price under close', () => {
    const navAfter = (d: ReturnType<typeof judge>) => d.checks[1].metrics.navAfter!;
    const mid = judge(10, 'mid');
    expect(navAfter(mid)).toBeCloseTo(10_000 - 10 * 0.1 - 10 * 100.1 * FEE, 9);
    expect(mid.checks[3].value).toBeCloseTo((10 * 100) / navAfter(mid), 12);
    const close = judge(10, 'close');
    // Crossing from the mark 99.95 to the ask 100.1, plus the fee; the position valued at 99.95.
    expect(navAfter(close)).toBeCloseTo(10_000 - 10 * 0.15 - 10 * 100.1 * FEE, 9);
    expect(close.checks[3].value).toBeCloseTo((10 * 99.95) / navAfter(close), 12);
  });

  it('the symbol exposure it approves is the one the venue reports after the fill', async () => {
    const qty = 40;
    const decision = judge(qty, 'close');
    expect(decision.approved).toBe(true);
    const { venue } = await openHarness({ startingCash: 10_000, takerFee: FEE, markPrice: 'close' });
    await venue.submit(order({ symbol: PERP.symbol, qty }), view(m));
    const a = await venue.account(view(m));
    const reported = (a.positions[0]!.qty * a.positions[0]!.markPrice) / a.nav;
    expect(decision.checks[3].value).toBeCloseTo(reported, 9);
  });

  it('the allocator values targets at the same mark', () => {
    const size = (markPrice: MarkPrice) =>
      allocate(
        [{ agent: 'a', symbol: PERP.symbol, direction: 1, confidence: 1 }],
        { account: account(), market: view(m), instruments: new Map([[PERP.symbol, PERP]]), cycle: 1 },
        { riskFraction: 1, orderStyle: 'market', sessionId: 's1', limits, feeRate: FEE, markPrice },
      )[0]!.order!;
    const close = size('close');
    expect(judge(close.qty, 'close').approved).toBe(true);
    // At the lower mark more units fit the same exposure limit.
    expect(close.qty).toBeGreaterThan(size('mid').qty);
  });
});

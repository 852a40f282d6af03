// SLIPPAGE_BPS in the risk engine and the allocator (issue 34, item 4): the expected fill price of a
// market order includes the slippage the paper venue will charge, so an order sized to a limit
// without it is refused with it, the allocator sizes to the limit with it, and once the venue fills
// that order (with the same slippage) the account's figure is within the limit.
import { describe, expect, it } from 'vitest';
import { review } from '../../../machines/risk.machine.js';
import { allocate } from '../../../src/domain/allocation.js';
import { signApproval } from '../../../src/domain/order-token.js';
import type { Instrument } from '../../../src/domain/market.js';
import { DEFAULT_RISK_LIMITS, evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { expectedFill } from '../../../src/domain/risk/expected-fill.js';
import { projectAccount } from '../../../src/domain/risk/projection.js';
import { fitToLimits } from '../../../src/domain/sizing.js';
import { openHarness, PERP, snapshot, view } from '../../adapters/paper-venue/fixtures.js';
import { account, market, order } from './builders.js';

const FEE = 0.0005;
const SLIPPAGE_BPS = 50;

describe('expected fill with slippage', () => {
  it('a market BUY is expected to fill slippageBps above its walked price, on the tick against it', () => {
    const m = market({ asks: [{ price: 100.1, qty: 1_000 }] });
    const fill = expectedFill(order(), 10, m, 100.1, { feeRate: FEE, tickSize: 0.01, slippageBps: 10 });
    // 100.1 × 1.001 = 100.2001 → 100.21; crossing 10 × (100.21 − 100) and the fee on 100.21.
    expect(fill.price).toBe(100.21);
    expect(fill.cost).toBeCloseTo(10 * 0.21 + 10 * 100.21 * FEE, 9);
    const sell = expectedFill(order({ side: 'SELL' }), 10, m, 99.9, { tickSize: 0.01, slippageBps: 10 });
    // 99.9 × 0.999 = 99.8001 → 99.8.
    expect(sell.price).toBe(99.8);
  });

  it('a limit order is still expected at its limit, which slippage never passes', () => {
    const limit = order({ type: 'limit', limitPrice: 100.1 });
    expect(expectedFill(limit, 10, market(), 100.1, { tickSize: 0.01, slippageBps: 50 }).price).toBe(100.1);
  });
});

describe('no risk figure past its limit because of slippage', () => {
  // The venue's test perpetual at mid 100 (bid 99.9, ask 100.1), one deep level a side.
  const instrument: Instrument = { ...PERP };
  const snap = snapshot({ bid: 99.9, ask: 100.1, asks: [{ price: 100.1, qty: 100_000 }] });
  const m = { ...snap, volume: 1e9 };
  const limits = { ...DEFAULT_RISK_LIMITS, maxDepthFraction: 1 };
  const acct = account({ positions: [] });
  const fit = (slippageBps: number) =>
    fitToLimits(1_000, 'BUY', {
      projection: projectAccount(acct),
      market: m,
      instrument,
      price: 100.1,
      limits,
      feeRate: FEE,
      slippageBps,
    });
  const judge = (qty: number) =>
    evaluateOrder(order({ symbol: PERP.symbol, qty }), {
      account: acct,
      market: m,
      limits,
      feeRate: FEE,
      tickSize: instrument.tickSize,
      slippageBps: SLIPPAGE_BPS,
    });

  it('the engine refuses the size that fits without slippage, and passes the one the allocator fits with it', async () => {
    const without = fit(0);
    const withSlippage = fit(SLIPPAGE_BPS);
    if (!without.ok || !withSlippage.ok) throw new Error('fitToLimits refused');
    expect(withSlippage.qty).toBeLessThan(without.qty);
    expect(judge(without.qty).checks[3].code).toBe('EXPOSURE_SYMBOL');
    const decision = judge(withSlippage.qty);
    expect(decision.approved).toBe(true);

    // Filled by the venue with the same slippage, the account's symbol exposure is within 0.5× NAV.
    const exposureAfter = async (qty: number): Promise<number> => {
      const { venue } = await openHarness({ startingCash: 10_000, slippageBps: SLIPPAGE_BPS, takerFee: FEE });
      const { fills } = await venue.submit(order({ clientOrderId: `x-${qty}`, symbol: PERP.symbol, qty }), view(snap));
      expect(fills[0]?.price).toBe(100.61); // 100.1 × 1.005 = 100.6005 → 100.61
      const a = await venue.account();
      return Math.abs(a.positions[0]!.qty * a.positions[0]!.markPrice) / a.nav;
    };
    expect(await exposureAfter(withSlippage.qty)).toBeLessThanOrEqual(limits.maxSymbolExposure);
    expect(await exposureAfter(without.qty)).toBeGreaterThan(limits.maxSymbolExposure);
  });
});

describe('the risk actor and the allocator are given the slippage', () => {
  const instrument: Instrument = { ...PERP };
  const m = { ...snapshot({ bid: 99.9, ask: 100.1, asks: [{ price: 100.1, qty: 100_000 }] }), volume: 1e9 };
  const limits = { ...DEFAULT_RISK_LIMITS, maxDepthFraction: 1 };
  const allocated = (slippageBps: number) => {
    const [proposal] = allocate(
      [{ agent: 'a', symbol: PERP.symbol, direction: 1, confidence: 1 }],
      { account: account(), market: view(m), instruments: new Map([[PERP.symbol, instrument]]), cycle: 1 },
      { riskFraction: 1, orderStyle: 'market', sessionId: 's1', limits, feeRate: FEE, slippageBps },
    );
    return proposal!.order!;
  };
  const reviewed = (qty: number, slippageBps: number) =>
    review(
      {
        limits,
        tokenTtlMs: 10_000,
        sign: (o, epoch, expiresAt) => signApproval(o, { secret: 's'.repeat(32), epoch, expiresAt }),
        instruments: [instrument],
        feeRate: FEE,
        slippageBps,
      },
      {
        type: 'risk.evaluate',
        cycle: 1,
        epoch: 1,
        now: m.ts,
        account: account(),
        market: view(m),
        orders: [order({ symbol: PERP.symbol, qty })],
        replyTo: undefined as never,
      },
    ).verdicts[0]!;

  it('the allocator sizes smaller with slippage; the risk actor refuses the larger size with it and passes the smaller', () => {
    const plain = allocated(0);
    const slipped = allocated(SLIPPAGE_BPS);
    expect(slipped.qty).toBeLessThan(plain.qty);
    expect(reviewed(plain.qty, 0).approval).not.toBeNull();
    expect(reviewed(plain.qty, SLIPPAGE_BPS).approval).toBeNull();
    expect(reviewed(slipped.qty, SLIPPAGE_BPS).approval).not.toBeNull();
  });
});

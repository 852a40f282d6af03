// Liquidity guard table: order notional against a fraction of recent traded notional, and order qty
// against a fraction of the visible depth on the side it takes — both read from the snapshot.
import { describe, expect, it } from 'vitest';
import type { BookLevel, MarketSnapshot } from '../../../src/domain/market.js';
import { visibleDepth } from '../../../src/domain/risk/liquidity-guard.js';
import { evaluateOrder } from '../../../src/domain/risk/risk-engine.js';
import { account, market, order, position } from './builders.js';

const levels = (n: number, qty: number, start: number, step: number): BookLevel[] =>
  Array.from({ length: n }, (_, i) => ({ price: start + i * step, qty }));
const deepAsks = levels(10, 100, 100.1, 0.1); // 1 000 visible → depth limit 250

interface Row {
  name: string;
  ov: Partial<MarketSnapshot>;
  side: 'BUY' | 'SELL';
  qty: number;
  passed: boolean;
  code: string;
  value?: number;
  limit?: number;
}

describe('liquidity guard', () => {
  it.each<Row>([
    // traded notional 1 000 × 100 = 100 000 → volume limit 5 000
    { name: 'well inside both', ov: {}, side: 'BUY', qty: 1, passed: true, code: 'OK' },
    { name: 'notional 4 904.9 ≤ 5 000', ov: { asks: deepAsks }, side: 'BUY', qty: 49, passed: true, code: 'OK' },
    {
      name: 'notional 5 005 > 5 000',
      ov: { asks: deepAsks },
      side: 'BUY',
      qty: 50,
      passed: false,
      code: 'LIQUIDITY_VOLUME',
      value: 5_005,
      limit: 5_000,
    },
    {
      name: 'twice the volume doubles the limit',
      ov: { asks: deepAsks, volume: 2_000 },
      side: 'BUY',
      qty: 50,
      passed: true,
      code: 'OK',
    },
    {
      name: 'no recent volume',
      ov: { volume: 0 },
      side: 'BUY',
      qty: 1,
      passed: false,
      code: 'LIQUIDITY_VOLUME',
      value: 100.1,
      limit: 0,
    },
    // 10 levels × 10 qty = 100 visible → depth limit 25
    { name: 'BUY qty 25 = 25 % of asks', ov: {}, side: 'BUY', qty: 25, passed: true, code: 'OK', value: 25, limit: 25 },
    {
      name: 'BUY qty 26 > 25 % of asks',
      ov: {},
      side: 'BUY',
      qty: 26,
      passed: false,
      code: 'LIQUIDITY_DEPTH',
      value: 26,
      limit: 25,
    },
    {
      name: 'SELL takes the bids (4 × 10 = 40 → 10)',
      ov: { bids: levels(10, 4, 99.9, -0.1) },
      side: 'SELL',
      qty: 11,
      passed: false,
      code: 'LIQUIDITY_DEPTH',
      value: 11,
      limit: 10,
    },
    {
      name: 'BUY is not limited by thin bids',
      ov: { bids: levels(10, 4, 99.9, -0.1) },
      side: 'BUY',
      qty: 11,
      passed: true,
      code: 'OK',
    },
    {
      name: 'empty ask side',
      ov: { asks: [] },
      side: 'BUY',
      qty: 0.001,
      passed: false,
      code: 'LIQUIDITY_DEPTH',
      value: 0.001,
      limit: 0,
    },
  ])('$name → $code', ({ ov, side, qty, passed, code, value, limit }) => {
    const check = evaluateOrder(order({ side, qty }), {
      account: account({ nav: 1e9, peakNav: 1e9 }),
      market: market(ov),
    }).checks[2];
    expect(check.guard).toBe('liquidity');
    expect(check).toMatchObject({ passed, code });
    if (value !== undefined) expect(check.value).toBeCloseTo(value, 9);
    if (limit !== undefined) expect(check.limit).toBeCloseTo(limit, 9);
  });

  it('prices a limit order at its limit price', () => {
    const check = evaluateOrder(order({ type: 'limit', limitPrice: 90, qty: 10 }), {
      account: account(),
      market: market(),
    }).checks[2];
    expect(check.metrics).toMatchObject({ orderNotional: 900, tradedNotional: 100_000 });
  });

  it('scales a reduce-only close beyond the limits instead of refusing it, at its effective quantity', () => {
    const positions = [position('BTCUSDT', 100, 100)];
    const tooBig = evaluateOrder(order({ side: 'SELL', qty: 30, reduceOnly: true }), {
      account: account({ positions }),
      market: market(),
    });
    expect(tooBig.checks[2]).toMatchObject({ passed: true, code: 'LIQUIDITY_SCALED', metrics: { allowedQty: 25 } });
    expect(tooBig.approved).toBe(true);
    expect(tooBig.scaledQty).toBe(25);
    // With a lot size the scaled close is rounded down to it, and is never less than one lot.
    const thin = market({ bids: [{ price: 99.9, qty: 0.001 }] });
    const sliced = evaluateOrder(order({ side: 'SELL', qty: 30, reduceOnly: true }), {
      account: account({ positions }),
      market: thin,
      lotSize: 0.01,
    });
    expect(sliced).toMatchObject({ approved: true, scaledQty: 0.01 });
    // The same order without reduceOnly is refused: only closes are scaled.
    const opening = evaluateOrder(order({ side: 'SELL', qty: 30 }), { account: account(), market: market() });
    expect(opening.checks[2]).toMatchObject({ passed: false, code: 'LIQUIDITY_DEPTH', value: 30, limit: 25 });
    const capped = evaluateOrder(order({ side: 'SELL', qty: 500, reduceOnly: true }), {
      account: account({ positions: [position('BTCUSDT', 20, 100)] }),
      market: market(),
    });
    expect(capped.checks[2]).toMatchObject({ passed: true, metrics: { orderQty: 20 } });
  });

  it('visibleDepth ignores nonsensical levels', () => {
    expect(
      visibleDepth([
        { price: 1, qty: 2 },
        { price: 0, qty: 5 },
        { price: 1, qty: -1 },
        { price: 1, qty: Number.NaN },
        { price: 2, qty: 3 },
      ]),
    ).toBe(5);
  });
});

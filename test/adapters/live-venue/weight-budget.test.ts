/**
 * The request-weight budget's arithmetic (src/adapters/live-venue/weight-budget.ts), on injected
 * wall times: reads and openings up to 80 % of the limit, closes and cancels up to the limit, weight
 * in flight counted until settled, the calendar minute rolling the total, answers out of order.
 */
import { describe, expect, it } from 'vitest';
import { BINANCE_USDM } from '../../../src/adapters/exchanges/binanceusdm.js';
import { BYBIT } from '../../../src/adapters/exchanges/bybit.js';
import { binanceWeight, createWeightBudget } from '../../../src/adapters/live-venue/weight-budget.js';

const MINUTE_START = 1_767_614_400_000; // a calendar minute's first ms (2026-01-05T12:00:00Z)

describe('the request weight budget', () => {
  it('admits reads up to 80 % of the limit and closes up to the limit, counting weight in flight', () => {
    const b = createWeightBudget();
    b.setLimit(100);
    b.observe(70, MINUTE_START + 1_000);
    expect(b.admit(10, 'other', MINUTE_START + 2_000)).toBeNull(); // 70 + 10 = 80
    const held = b.admit(1, 'other', MINUTE_START + 15_000); // 80 in flight or used + 1
    expect(held).toMatchObject({ waitMs: 45_000 });
    expect(held?.reason).toMatch(/\(80 used or in flight \+ 1 > 80 % of the 100 a minute;.*rolls in 45 s$/);
    expect(b.admit(20, 'close', MINUTE_START + 15_000)).toBeNull(); // the reserve: 100
    expect(b.admit(1, 'close', MINUTE_START + 15_000)).toMatchObject({ waitMs: 45_000 });
    b.settle(10);
    b.settle(20);
    b.observe(100, MINUTE_START + 16_000); // the exchange counted them
    expect(b.admit(1, 'close', MINUTE_START + 16_000)).not.toBeNull();
  });

  it('starts afresh with the next calendar minute, and ignores an older, lower total answered late', () => {
    const b = createWeightBudget();
    b.setLimit(100);
    b.observe(90, MINUTE_START + 59_000);
    expect(b.admit(1, 'other', MINUTE_START + 59_999)).toMatchObject({ waitMs: 1 });
    expect(b.admit(80, 'other', MINUTE_START + 60_000)).toBeNull();
    b.settle(80);
    b.observe(80, MINUTE_START + 60_500);
    b.observe(30, MINUTE_START + 60_600); // sent earlier, answered later: the total only grows
    expect(b.admit(1, 'other', MINUTE_START + 61_000)).not.toBeNull();
  });

  it('uses Binance’s 2 400 until exchangeInfo says otherwise, and ignores nonsense', () => {
    const b = createWeightBudget();
    b.setLimit(Number.NaN);
    b.observe(-5, MINUTE_START);
    expect(b.admit(1_920, 'other', MINUTE_START)).toBeNull();
    expect(b.admit(1, 'other', MINUTE_START)).not.toBeNull();
  });

  it('tells closes and cancels from the rest, and corrects the costs ccxt rounds down', () => {
    const closes = BINANCE_USDM.isClosing;
    expect(closes('DELETE', 'order', { symbol: 'BTCUSDT' })).toBe(true);
    expect(closes('POST', 'order', { reduceOnly: 'true' })).toBe(true);
    expect(closes('POST', 'algoOrder', { closePosition: true })).toBe(true);
    expect(closes('POST', 'order', { reduceOnly: false })).toBe(false);
    expect(closes('GET', 'order', { reduceOnly: true })).toBe(false);
    // Bybit cancels by POST: the path says it.
    expect(BYBIT.isClosing('POST', 'v5/order/cancel', { symbol: 'BTCUSDT' })).toBe(true);
    expect(BYBIT.isClosing('POST', 'v5/order/cancel-all', {})).toBe(true);
    expect(BYBIT.isClosing('POST', 'v5/order/create', { reduceOnly: true })).toBe(true);
    expect(BYBIT.isClosing('POST', 'v5/order/create', {})).toBe(false);
    expect(binanceWeight('fapiPrivateV3', 'positionRisk', 1)).toBe(5);
    expect(binanceWeight('fapiPublic', 'depth', 2)).toBe(2);
    expect(binanceWeight('fapiPublic', 'time', Number.NaN)).toBe(1);
  });
});

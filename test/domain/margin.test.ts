/**
 * The margin rules as pure functions: worst-side notional, initial and maintenance margin, free
 * margin, the order test (reductions never need margin) and the liquidation test, plus the
 * settings parser behind MARGIN_INITIAL_RATE, MARGIN_MAINTENANCE_RATE and MARGIN_RATES.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MARGIN_TABLE,
  freeMargin,
  initialMargin,
  isLiquidatable,
  maintenanceMargin,
  marginAllows,
  marginRatesFor,
  marginedNotional,
  parseMarginTable,
} from '../../src/domain/margin.js';

const RATES = { initial: 0.1, maintenance: 0.05 };

describe('marginedNotional: the worst side of position and resting opening orders', () => {
  it.each([
    ['flat, nothing resting', 0, 0, 0, 0],
    ['long alone', 1_000, 0, 0, 1_000],
    ['short alone', -1_000, 0, 0, 1_000],
    ['long plus resting buys', 1_000, 500, 0, 1_500],
    ['long with a sell that only reduces it', 1_000, 0, 800, 1_000],
    ['long with a sell that flips it beyond its size', 1_000, 0, 2_500, 1_500],
    ['flat with buys and sells resting: the larger side', 0, 300, 700, 700],
  ])('%s', (_name, position, buys, sells, expected) => {
    const exposure = { positionNotional: position, restingBuyNotional: buys, restingSellNotional: sells };
    expect(marginedNotional(exposure)).toBe(expected);
    expect(initialMargin(exposure, RATES)).toBeCloseTo(expected * 0.1, 9);
  });

  it('maintenance counts the position only, whatever its sign', () => {
    expect(maintenanceMargin(-2_000, RATES)).toBe(100);
    expect(maintenanceMargin(2_000, RATES)).toBe(100);
  });
});

describe('marginAllows and the liquidation test', () => {
  it('lets an order raise margin up to the free margin and not beyond', () => {
    expect(freeMargin(10_000, 4_000)).toBe(6_000);
    expect(marginAllows(10_000, 4_000, 10_000)).toBe(true);
    expect(marginAllows(10_000, 4_000, 10_000.01)).toBe(false);
  });

  it('never asks margin of an order that does not raise it, even with no equity left', () => {
    expect(marginAllows(-500, 9_000, 9_000)).toBe(true);
    expect(marginAllows(-500, 9_000, 1_000)).toBe(true);
    expect(marginAllows(-500, 9_000, 9_000.5)).toBe(false);
  });

  it('liquidates at maintenance, not above it, and never a flat account', () => {
    expect(isLiquidatable(100, 100)).toBe(true);
    expect(isLiquidatable(99, 100)).toBe(true);
    expect(isLiquidatable(100.01, 100)).toBe(false);
    expect(isLiquidatable(-5, 0)).toBe(false);
  });
});

describe('parseMarginTable', () => {
  it('defaults to 10 % initial and 5 % maintenance for every symbol', () => {
    const table = parseMarginTable({});
    expect(table).toEqual({ fallback: { initial: 0.1, maintenance: 0.05 }, bySymbol: {} });
    expect(marginRatesFor(DEFAULT_MARGIN_TABLE, { symbol: 'ANY' })).toEqual(table.fallback);
  });

  it('takes account-wide rates and per-symbol overrides', () => {
    const table = parseMarginTable({
      initial: 0.2,
      maintenance: 0.1,
      overrides: 'BTCUSDT:0.05:0.025, ethusdt:0.08:0.04',
    });
    expect(marginRatesFor(table, { symbol: 'BTCUSDT' })).toEqual({ initial: 0.05, maintenance: 0.025 });
    expect(marginRatesFor(table, { symbol: 'ETHUSDT' })).toEqual({ initial: 0.08, maintenance: 0.04 });
    expect(marginRatesFor(table, { symbol: 'SOLUSDT' })).toEqual({ initial: 0.2, maintenance: 0.1 });
  });

  it.each([
    [{ initial: 0.05, maintenance: 0.1 }, /maintenance \(0.1\) < initial \(0.05\)/],
    [{ initial: 1.5 }, /≤ 1/],
    [{ overrides: 'BTCUSDT:0.05' }, /BTCUSDT:0.05" must be SYMBOL:initial:maintenance/],
    [{ overrides: 'BTCUSDT:abc:0.01' }, /margin override BTCUSDT/],
    [{ overrides: 'BTCUSDT:0.01:0.02' }, /margin override BTCUSDT/],
  ])('refuses %o with a message naming the problem', (settings, message) => {
    expect(() => parseMarginTable(settings)).toThrow(message);
  });
});

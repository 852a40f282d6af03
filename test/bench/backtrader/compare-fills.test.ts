/** The fill-by-fill check of the backtrader comparison: tcs's trades.csv against backtrader's fill list. */
import { describe, expect, it } from 'vitest';
import { compareFills } from '../../../bench/backtrader/compare-fills.js';

const TRADES =
  'ts,client_order_id,symbol,side,qty,price,notional,fee,liquidity,strategy,kind,realized_pnl,position_after\n' +
  '2024-01-01T00:30:00.000Z,sim-30-BTCUSDT-0,BTCUSDT,BUY,1,101.18,101.18,0.04,taker,sma_cross,order,0,1\n' +
  '2024-01-01T00:45:00.000Z,sim-45-SOLUSDT-0,SOLUSDT,BUY,1,19.61,19.61,0.007,taker,sma_cross,order,0,1\n';

describe('compareFills', () => {
  it('finds no difference when both engines filled the same bars, sides and prices, in any order', () => {
    const bt = '2024-01-01T00:45:00,SOLUSDT,BUY,19.610000000000003\n2024-01-01T00:30:00,BTCUSDT,BUY,101.18\n';
    // 19.610000000000003 is not 19.61: a price that differs by an ulp is a different fill.
    expect(compareFills(TRADES, bt).differ).toBe(2);
    const same = '2024-01-01T00:45:00,SOLUSDT,BUY,19.61\n2024-01-01T00:30:00,BTCUSDT,BUY,101.18\n';
    expect(compareFills(TRADES, same)).toEqual({ differ: 0, first: null });
  });

  it('names the first fill only one engine made', () => {
    const bt = '2024-01-01T00:31:00,BTCUSDT,BUY,101.18\n2024-01-01T00:45:00,SOLUSDT,BUY,19.61\n';
    expect(compareFills(TRADES, bt)).toEqual({
      differ: 2,
      first: 'tcs only: 2024-01-01T00:30:00,BTCUSDT,BUY,101.18',
    });
  });
});

/**
 * The candles a cycle records in its decision entry (src/domain/cycle-candles.ts): per symbol the
 * bar that just closed as [open time, open, high, low, close], what the console draws its candle
 * chart from; a symbol without a whole, finite bar is left out.
 */
import { describe, expect, it } from 'vitest';
import { barsFromRows } from '../../src/domain/bars.js';
import { cycleCandles } from '../../src/domain/cycle-candles.js';
import type { MarketSnapshot, MarketView } from '../../src/domain/market.js';

const snapshot = (symbol: string, rows: Parameters<typeof barsFromRows>[0]) =>
  [symbol, { symbol, bars: barsFromRows(rows) } as MarketSnapshot] as const;

describe('cycle candles', () => {
  it('takes each symbol’s last bar as [time, open, high, low, close]', () => {
    const market: MarketView = new Map([
      snapshot('BTCUSDT', [
        { time: 0, open: 1, high: 2, low: 0.5, close: 1.5, volume: 3 },
        { time: 60_000, open: 60_000, high: 60_500, low: 59_900, close: 60_250.5, volume: 7 },
      ]),
      snapshot('ETHUSDT', [{ time: 60_000, open: 3_300, high: 3_310, low: 3_290, close: 3_305, volume: 1 }]),
      snapshot('SOLUSDT', []),
      snapshot('XRPUSDT', [{ time: 60_000, open: Number.NaN, high: 1, low: 1, close: 1, volume: 1 }]),
    ]);
    expect(cycleCandles(market)).toEqual({
      BTCUSDT: [60_000, 60_000, 60_500, 59_900, 60_250.5],
      ETHUSDT: [60_000, 3_300, 3_310, 3_290, 3_305],
    });
    expect(cycleCandles(new Map())).toEqual({});
  });
});

/**
 * The console's candle chart data (console/lib/candles.ts): the candles the decision log recorded
 * per symbol (one per bar, the last record of a bar kept, in time order), and our fills on them as
 * markers at their price, on the bar during which they happened, buys and sells of one bar grouped.
 */
import { describe, expect, it } from 'vitest';
import { candleSeries, fillMarkers, mergeCandles } from '../../console/lib/candles.js';
import type { FillRow } from '../../console/lib/fills.js';
import type { DecisionEntry } from '../../console/lib/types.js';

const M = 60_000;
const entry = (seq: number, candles: Record<string, number[]> | undefined): DecisionEntry => ({
  seq,
  at: new Date(seq * M).toISOString(),
  symbol: null,
  hash: 'h',
  decision: { cycle: seq, ...(candles ? { candles } : {}) },
});
const fill = (minute: number, side: string | null, qty: number, price: number | null, symbol = 'BTCUSDT'): FillRow => ({
  key: `${minute}:${side}`,
  seq: minute,
  at: new Date(minute * M + 500).toISOString(),
  cycle: minute,
  symbol,
  side,
  qty,
  price,
  client_order_id: null,
});

describe('candle chart data', () => {
  it('reads each symbol’s candles from the log, one per bar in time order, skipping what is not one', () => {
    const entries = [
      entry(3, { BTCUSDT: [2 * M, 10, 12, 9, 11], ETHUSDT: [2 * M, 1, 1, 1, 1] }),
      entry(2, { BTCUSDT: [1 * M, 9, 10, 8, 10] }),
      entry(1, { BTCUSDT: [1 * M, 9, 9, 9, 9], SOLUSDT: [1 * M, Number.NaN, 1, 1, 1] }),
      entry(0, undefined),
    ];
    const series = mergeCandles(new Map(), entries);
    expect([...series.keys()]).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(candleSeries(series, 'BTCUSDT')).toEqual([
      { time: 60, open: 9, high: 10, low: 8, close: 10 },
      { time: 120, open: 10, high: 12, low: 9, close: 11 },
    ]);
    // A later read adds to what the page has.
    const more = mergeCandles(series, [entry(4, { BTCUSDT: [3 * M, 11, 11, 10, 10.5] })]);
    expect(candleSeries(more, 'BTCUSDT').map((c) => c.time)).toEqual([60, 120, 180]);
    expect(candleSeries(more, 'XRPUSDT')).toEqual([]);
  });

  it('puts our fills on the bar during which they happened, at their price; one bar’s buys (or sells) as one marker', () => {
    const candles = [
      { time: 60, open: 9, high: 10, low: 8, close: 10 },
      { time: 120, open: 10, high: 12, low: 9, close: 11 },
    ];
    const fills = [
      fill(3, 'SELL', 0.1, 11.5),
      fill(2, 'BUY', 0.1, 10),
      fill(2, 'BUY', 0.3, 11),
      fill(2, 'BUY', 1, 10, 'ETHUSDT'),
      fill(0, 'BUY', 1, 9), // before the first candle: not on the chart
      fill(3, null, 1, 9),
      fill(3, 'SELL', 1, null),
    ];
    expect(fillMarkers(fills, 'BTCUSDT', candles)).toEqual([
      {
        time: 120,
        position: 'atPriceBottom',
        price: expect.closeTo(10.75, 9),
        shape: 'arrowUp',
        color: '#0f7b3f',
        text: 'Buy 0.4 @ 10.75 (2 fills)',
      },
      {
        time: 120,
        position: 'atPriceTop',
        price: 11.5,
        shape: 'arrowDown',
        color: '#b91c1c',
        text: 'Sell 0.1 @ 11.50',
      },
    ]);
    expect(fillMarkers(fills, 'BTCUSDT', [])).toEqual([]);
  });
});

/**
 * The console's candle chart data (console/lib/candles.ts): the candles the decision log recorded
 * per symbol (one per bar, the last record of a bar kept, in time order), and our fills on them as
 * markers at their price, each on the bar its own decision entry recorded, buys and sells of one bar
 * grouped.
 */
import { describe, expect, it } from 'vitest';
import { NO_CANDLES, candleSeries, fillMarkers, mergeCandles } from '../../console/lib/candles.js';
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
    const book = mergeCandles(NO_CANDLES, entries);
    expect([...book.bars.keys()]).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(candleSeries(book, 'BTCUSDT')).toEqual([
      { time: 60, open: 9, high: 10, low: 8, close: 10 },
      { time: 120, open: 10, high: 12, low: 9, close: 11 },
    ]);
    // A later read adds to what the page has.
    const more = mergeCandles(book, [entry(4, { BTCUSDT: [3 * M, 11, 11, 10, 10.5] })]);
    expect(candleSeries(more, 'BTCUSDT').map((c) => c.time)).toEqual([60, 120, 180]);
    expect(candleSeries(more, 'XRPUSDT')).toEqual([]);
  });

  it('puts each fill on the bar its own entry recorded (whatever the bars’ clock), at its price; one bar’s buys as one marker', () => {
    // The feed's bars run on another clock than the entries (the synthetic market's time).
    const FEED = Date.UTC(2020, 0, 1);
    const book = mergeCandles(NO_CANDLES, [
      entry(2, { BTCUSDT: [FEED, 9, 10, 8, 10] }),
      entry(3, { BTCUSDT: [FEED + M, 10, 12, 9, 11] }),
      entry(4, { BTCUSDT: [FEED + 2 * M, 11, 12, 10, 11.5] }),
    ]);
    const bar = (k: number) => (FEED + k * M) / 1000;
    const fills = [
      fill(4, 'SELL', 0.1, 11.5),
      fill(3, 'BUY', 0.1, 10),
      fill(3, 'BUY', 0.3, 11),
      fill(3, 'BUY', 1, 10, 'ETHUSDT'),
      fill(1, 'BUY', 1, 9), // its entry was not read: not on the chart
      fill(4, null, 1, 9),
      fill(4, 'SELL', 1, null),
    ];
    expect(fillMarkers(fills, 'BTCUSDT', book)).toEqual([
      {
        time: bar(1),
        position: 'atPriceBottom',
        price: expect.closeTo(10.75, 9),
        shape: 'arrowUp',
        color: '#0f7b3f',
        text: 'Buy 0.4 @ 10.75 (2 fills)',
      },
      {
        time: bar(2),
        position: 'atPriceTop',
        price: 11.5,
        shape: 'arrowDown',
        color: '#b91c1c',
        text: 'Sell 0.1 @ 11.50',
      },
    ]);
    expect(fillMarkers(fills, 'BTCUSDT', NO_CANDLES)).toEqual([]);
  });

  it('puts a fill between cycles (no cycle: an order_filled entry) on the bar of the next decision entry', () => {
    const FEED = Date.UTC(2020, 0, 1);
    const book = mergeCandles(NO_CANDLES, [
      entry(10, { BTCUSDT: [FEED, 9, 10, 8, 10] }),
      entry(12, { BTCUSDT: [FEED + M, 10, 12, 9, 11] }),
    ]);
    // Recorded as cycle 12's market advanced (seq 11), before cycle 12's decision (seq 12).
    const between = { ...fill(11, 'SELL', 0.2, 11.5), cycle: null };
    const after = { ...fill(13, 'BUY', 0.2, 11), cycle: null }; // no decision recorded after it yet
    expect(fillMarkers([between, after], 'BTCUSDT', book)).toEqual([
      {
        time: (FEED + M) / 1000,
        position: 'atPriceTop',
        price: 11.5,
        shape: 'arrowDown',
        color: '#b91c1c',
        text: 'Sell 0.2 @ 11.50',
      },
    ]);
  });

  it('keeps at most 5,000 bars a symbol, the newest, and forgets the entries of the bars it drops', () => {
    const entries = Array.from({ length: 5_002 }, (_, i) => entry(i + 1, { BTCUSDT: [i * M, 1, 1, 1, 1] }));
    const book = mergeCandles(NO_CANDLES, entries);
    const series = candleSeries(book, 'BTCUSDT');
    expect(series).toHaveLength(5_000);
    expect(series[0]?.time).toBe(120);
    expect(book.recordedBy.get('BTCUSDT')?.has(2)).toBe(false);
    expect(book.recordedBy.get('BTCUSDT')?.get(3)).toBe(120);
  });
});

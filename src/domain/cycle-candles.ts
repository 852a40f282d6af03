/**
 * The candle each symbol's feed just closed, as a cycle records it in its decision entry (issue 35:
 * the console's candle chart with our fills on it reads candles and fills from the same log, so
 * they always agree). A tuple, not an object, because it is written every cycle for every symbol:
 * about 50 bytes a symbol. A symbol without a whole, finite bar is left out.
 */
import type { MarketView } from './market.js';

/** [open time (epoch ms), open, high, low, close]. */
export type CycleCandle = [number, number, number, number, number];

export function cycleCandles(market: MarketView): Record<string, CycleCandle> {
  const out: Record<string, CycleCandle> = {};
  for (const [symbol, snapshot] of market) {
    const bars = snapshot.bars;
    const i = bars.length - 1;
    if (i < 0) continue;
    const candle: CycleCandle = [bars.time[i]!, bars.open[i]!, bars.high[i]!, bars.low[i]!, bars.close[i]!];
    if (candle.every(Number.isFinite)) out[symbol] = candle;
  }
  return out;
}

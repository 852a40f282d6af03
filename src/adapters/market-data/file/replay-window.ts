/**
 * Which candles a replay covers. All symbols step together on one candle time, so each must hold
 * every candle of the window: a symbol that starts later or ends earlier than the window is refused
 * at open, by name, rather than replayed with holes or padded with made-up candles. Without `from`
 * the window starts at the earliest first candle of any symbol, without `to` it ends at the latest
 * last candle, so then every symbol must cover exactly the same period.
 */
import { DataFileError, showTs } from './data-errors.js';
import type { SymbolData } from './data-dir.js';

export interface ReplayWindow {
  /** Open time of the first and last replayed candle, epoch ms. */
  first: number;
  last: number;
  stepMs: number;
  /** Per symbol, in the order given: the series index of the first replayed candle. */
  offsets: number[];
}

export function replayWindow(symbols: readonly SymbolData[], stepMs: number, from?: number, to?: number): ReplayWindow {
  const ref = symbols[0]!;
  const lastOf = (s: SymbolData): number => s.candles.start + (s.candles.count - 1) * stepMs;
  for (const s of symbols) {
    if ((((s.candles.start - ref.candles.start) % stepMs) + stepMs) % stepMs !== 0) {
      throw new DataFileError(
        s.candleFile,
        `candles open at ${showTs(s.candles.start)}, off the ${stepMs} ms grid of ${ref.candleFile} (${showTs(ref.candles.start)})`,
      );
    }
  }
  const grid = ref.candles.start;
  const earliest = Math.min(...symbols.map((s) => s.candles.start));
  const latest = Math.max(...symbols.map(lastOf));
  // from: the first candle opening at or after it; to: candles opening before it (exclusive).
  const first = from === undefined ? earliest : grid + Math.ceil((from - grid) / stepMs) * stepMs;
  const last = to === undefined ? latest : grid + (Math.ceil((to - grid) / stepMs) - 1) * stepMs;
  if (last < first) {
    throw new DataFileError('', `no candle opens between from ${showTs(from ?? first)} and to ${showTs(to ?? last)}`);
  }
  for (const s of symbols) {
    if (s.candles.start > first) {
      throw new DataFileError(
        s.candleFile,
        `${s.symbol} starts at ${showTs(s.candles.start)}, after the replay's first candle ${showTs(first)}: ` +
          'every symbol must cover the whole replay (choose a later from, or drop the symbol)',
      );
    }
    if (lastOf(s) < last) {
      throw new DataFileError(
        s.candleFile,
        `${s.symbol} ends at ${showTs(lastOf(s))}, before the replay's last candle ${showTs(last)}: ` +
          'every symbol must cover the whole replay (choose an earlier to, or drop the symbol)',
      );
    }
  }
  return { first, last, stepMs, offsets: symbols.map((s) => (first - s.candles.start) / stepMs) };
}

/**
 * Which candles a replay covers. All symbols step together on one candle time, so each must hold
 * every candle of the window: a symbol that starts later or ends earlier than the window is refused
 * at open, by name, rather than replayed with holes or padded with made-up candles. Without `from`
 * the window starts at the earliest first candle of any symbol, without `to` it ends at the latest
 * last candle, so then every symbol must cover exactly the same period.
 *
 * Warm-up: the strategies' history comes from the data itself. The first replayed candle is the
 * first one with `historyBars − 1` candles before it in every symbol's file, so no strategy ever sees
 * a shorter history than it declared; a `from` earlier than that moves forward to it (`warmUp` says
 * by how much), and data too short for even one cycle after its warm-up is refused.
 */
import { DataFileError, showTs } from './data-errors.js';
import type { SymbolData } from './data-dir.js';
import type { CandleSpan } from './series.js';

export interface ReplayWindow {
  /** Open time of the first and last replayed candle, epoch ms. */
  first: number;
  last: number;
  stepMs: number;
  /** Per symbol, in the order given: the series index of the first replayed candle. */
  offsets: number[];
  /** The history before the first candle (bars), and the first candle asked for when that moved it. */
  warmUp: { bars: number; movedFrom: number | null };
}

export function replayWindow(
  symbols: readonly SymbolData<CandleSpan>[],
  stepMs: number,
  from?: number,
  to?: number,
  historyBars = 1,
): ReplayWindow {
  const ref = symbols[0]!;
  const lastOf = (s: SymbolData<CandleSpan>): number => s.candles.start + (s.candles.count - 1) * stepMs;
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
  const asked = from === undefined ? earliest : grid + Math.ceil((from - grid) / stepMs) * stepMs;
  // The first candle with the history before it in every file: counted from the latest start (a
  // symbol that starts after the window asked for is refused below, by name).
  const warmed = Math.max(...symbols.map((s) => s.candles.start)) + (historyBars - 1) * stepMs;
  const first = Math.max(asked, warmed);
  const last = to === undefined ? latest : grid + (Math.ceil((to - grid) / stepMs) - 1) * stepMs;
  if (last < first && warmed > asked && last >= asked) {
    throw new DataFileError(
      '',
      `too little data: the strategies need ${historyBars} candles of history before the first cycle, ` +
        `so the replay would start at ${showTs(warmed)}, after its last candle ${showTs(last)}: ` +
        'give more data (an earlier start) or strategies with a shorter lookback',
    );
  }
  if (last < first) {
    throw new DataFileError('', `no candle opens between from ${showTs(from ?? first)} and to ${showTs(to ?? last)}`);
  }
  for (const s of symbols) {
    if (s.candles.start > Math.max(asked, earliest)) {
      throw new DataFileError(
        s.candleFile,
        `${s.symbol} starts at ${showTs(s.candles.start)}, after the replay's first candle ${showTs(Math.max(asked, earliest))}: ` +
          'every symbol must cover the whole replay (choose a later from, or drop the symbol)',
      );
    }
    if (s.candles.start > first - (historyBars - 1) * stepMs) {
      throw new DataFileError(
        s.candleFile,
        `${s.symbol} starts at ${showTs(s.candles.start)}: only ${(first - s.candles.start) / stepMs} candles before the replay's first ${showTs(first)}, ` +
          `and the strategies need ${historyBars - 1} (choose a later from, or drop the symbol)`,
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
  return {
    first,
    last,
    stepMs,
    offsets: symbols.map((s) => (first - s.candles.start) / stepMs),
    warmUp: { bars: historyBars - 1, movedFrom: first > asked ? asked : null },
  };
}

/**
 * A replay hands strategies the past only: the bars of a file feed's snapshot — also the memory
 * behind them (`bars.close.buffer`), which a strategy can reach — hold no candle after the one that
 * just closed. (Views straight into the file's columns exposed the whole file through `.buffer`.)
 * The bars themselves stay the newest ones, oldest first, up to the history the feed keeps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument } from '../../../../src/domain/market.js';
import { createFileFeed } from '../../../../src/adapters/market-data/file/index.js';
import { CANDLE_HEADER, MIN, T0, csv, tempDirs } from './data-dirs.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const BTC: Instrument = { symbol: 'BTCUSDT', kind: 'spot', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
const FUTURE = 777;

describe('file feed: no look-ahead through the bars', () => {
  it("a snapshot's bars and the memory behind them hold nothing after the current candle", async () => {
    // Ten candles closing at 100..109, then five whose close (777) nothing may see early.
    const rows = [
      ...Array.from({ length: 10 }, (_, k) => [T0 + k * MIN, 100 + k, 100 + k + 0.5, 99 + k, 100 + k, 1_000]),
      ...Array.from({ length: 5 }, (_, k) => [T0 + (10 + k) * MIN, FUTURE, FUTURE + 1, FUTURE - 1, FUTURE, 1_000]),
    ];
    const feed = await createFileFeed({
      dir: dirs.make({ 'candles/BTCUSDT.csv': csv(CANDLE_HEADER, rows) }),
      instruments: [BTC],
    });
    for (let k = 0; k < 10; k++) {
      const { bars } = (await feed.next(T0 + (k + 1) * MIN)).get('BTCUSDT')!;
      expect(bars.close.at(-1)).toBe(100 + k);
      expect(Array.from(bars.close)).toEqual(
        Array.from({ length: bars.length }, (_, j) => 100 + k - bars.length + 1 + j),
      );
      for (const column of [bars.open, bars.high, bars.low, bars.close])
        expect(Array.from(new Float64Array(column.buffer)).some((v) => v >= FUTURE - 1)).toBe(false);
    }
  });
});

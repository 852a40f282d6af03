/**
 * What a replayed snapshot carries of the candles before it, cycle after cycle: `volume` is the sum
 * of the last VOLUME_WINDOW_BARS candles' volumes added oldest first (fewer at the file's start, and
 * the same float sum all the way through however the feed keeps them), and `bars` the newest
 * `historyLength` candles in order, while the windows wrap many times over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument } from '../../../../src/domain/market.js';
import { VOLUME_WINDOW_BARS } from '../../../../src/domain/market.js';
import { createFileFeed } from '../../../../src/adapters/market-data/file/index.js';
import { CANDLE_HEADER, candles, csv, tempDirs } from './data-dirs.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const BTC: Instrument = { symbol: 'BTCUSDT', kind: 'spot', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };

describe('file feed: the windows behind each snapshot', () => {
  it('sums volume oldest first and keeps the newest bars in order through many wraps', async () => {
    const n = 3 * VOLUME_WINDOW_BARS + 17;
    // Volumes whose float sum depends on the order they are added in.
    const rows = candles(n).map((r, i) => [r[0], r[1], r[2], r[3], r[4], 0.1 * ((i * 7) % 13) + 1e-7 * i] as const);
    const dir = dirs.make({ 'candles/BTCUSDT.csv': csv(CANDLE_HEADER, rows) });
    const history = 7;
    const feed = await createFileFeed({ dir, instruments: [BTC], historyLength: history });
    for (let i = 0; i < n; i++) {
      const snap = (await feed.next(0)).get('BTCUSDT')!;
      let expected = 0;
      for (let k = Math.max(0, i - VOLUME_WINDOW_BARS + 1); k <= i; k++) expected += rows[k]![5];
      expect(snap.volume).toBe(expected);
      const held = rows.slice(Math.max(0, i - history + 1), i + 1);
      expect(Array.from(snap.bars.time)).toEqual(held.map((r) => r[0]));
      expect(Array.from(snap.bars.close)).toEqual(held.map((r) => r[4]));
      expect(Array.from(snap.bars.volume)).toEqual(held.map((r) => r[5]));
    }
    await feed.close();
  });
});

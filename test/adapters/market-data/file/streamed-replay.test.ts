/**
 * A CSV replay holds no future bars in memory (issue 34, item 1): the feed indexes the file when it
 * opens (validating every row, keeping only where each row starts) and reads each candle from the
 * file when its cycle comes, the next candle's open only when the venue asks for a fill. Shown from
 * outside: rows rewritten on disk after the feed opened (same length, new prices) are what the later
 * snapshots and fills see, which a feed holding the parsed file could not show. A row that no longer
 * parses or has moved is refused by file and line, never replayed as something else.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument } from '../../../../src/domain/market.js';
import { createFileFeed } from '../../../../src/adapters/market-data/file/index.js';
import { CANDLE_HEADER, MIN, T0, candles, csv, tempDirs } from './data-dirs.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const BTC: Instrument = { symbol: 'BTCUSDT', kind: 'spot', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };

/** Rewrites the data row for candle `k` (0-based) with `edit`, keeping every byte offset. */
function rewriteRow(file: string, k: number, edit: (row: string) => string): void {
  const lines = readFileSync(file, 'utf8').split('\n');
  const before = lines[k + 1]!;
  const after = edit(before);
  expect(after.length).toBe(before.length);
  lines[k + 1] = after;
  writeFileSync(file, lines.join('\n'));
}

async function openFeed(rows: Parameters<typeof csv>[1]) {
  const dir = dirs.make({ 'candles/BTCUSDT.csv': csv(CANDLE_HEADER, rows) });
  const file = join(dir, 'candles', 'BTCUSDT.csv');
  const feed = await createFileFeed({ dir, instruments: [BTC], historyLength: 3 });
  return { feed, file };
}

describe('file feed: a CSV replay reads candles as it replays them', () => {
  it('later rows rewritten on disk after the feed opened are what later snapshots and fills see', async () => {
    // Candle k opens at 100 + k and closes at 101 + k; candle 7 is then rewritten to open and close at 555.
    const { feed, file } = await openFeed(candles(10));
    for (let k = 0; k < 5; k++) await feed.next(T0 + (k + 1) * MIN);
    rewriteRow(file, 7, (row) => row.replace(',107,110,105,108,', ',555,556,554,555,'));
    const six = (await feed.next(T0 + 6 * MIN)).get('BTCUSDT')!;
    expect(six.last).toBe(106);
    const seven = (await feed.next(T0 + 7 * MIN)).get('BTCUSDT')!;
    // Candle 6's next open is candle 7's rewritten open: the fill reads it from the file.
    expect(seven.execution?.taker()?.last).toBe(555);
    const eight = (await feed.next(T0 + 8 * MIN)).get('BTCUSDT')!;
    expect(eight.last).toBe(555);
    expect(Array.from(eight.bars.close)).toEqual([106, 107, 555]);
  });

  it('a row that no longer parses, or no longer holds its candle, is refused by file and line', async () => {
    const { feed, file } = await openFeed(candles(10));
    await feed.next(T0 + MIN);
    rewriteRow(file, 3, (row) => row.replace(/,104,/, ',1x4,'));
    await feed.next(T0 + 2 * MIN);
    await feed.next(T0 + 3 * MIN);
    await expect(feed.next(T0 + 4 * MIN)).rejects.toThrow(/candles\/BTCUSDT\.csv line 5: changed/);
    const second = await openFeed(candles(10));
    rewriteRow(second.file, 4, (row) => row.replace(String(T0 + 4 * MIN), String(T0 + 9 * MIN)));
    for (let k = 0; k < 4; k++) await second.feed.next(T0 + (k + 1) * MIN);
    await expect(second.feed.next(T0 + 5 * MIN)).rejects.toThrow(/candles\/BTCUSDT\.csv line 6: changed/);
  });
});

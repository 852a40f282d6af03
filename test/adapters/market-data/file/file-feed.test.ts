/**
 * The historical replay feed: symbols stepped together on one candle time, history taken from
 * before `from`, the derived book on the tick and lot grids, funding announced and shifted with the
 * clock, and a loud end when the data runs out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument } from '../../../../src/domain/market.js';
import { isOnStep } from '../../../../src/domain/steps.js';
import {
  applyManifestInstruments,
  createFileFeed,
  FeedExhaustedError,
  readManifestInstruments,
} from '../../../../src/adapters/market-data/file/index.js';
import { CANDLE_HEADER, FUNDING_HEADER, MIN, T0, candleParquet, candles, csv, tempDirs } from './data-dirs.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const BTC: Instrument = { symbol: 'BTCUSDT', kind: 'spot', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
const ETH: Instrument = { symbol: 'ETHUSDT', kind: 'spot', lotSize: 0.01, tickSize: 0.01, minNotional: 5 };
const H8 = 8 * 3_600_000;

describe('file feed', () => {
  it('steps every symbol on the same candle, stamps snapshots now, and refuses to go past the end', async () => {
    const dir = dirs.make({
      'candles/BTCUSDT.csv': csv(CANDLE_HEADER, candles(5, T0, 42_000, 10)),
      'candles/ETHUSDT.parquet': candleParquet(candles(5, T0, 2_300, 1)),
    });
    const feed = await createFileFeed({ dir, instruments: [BTC, ETH] });
    expect(feed.range).toEqual({ first: T0, last: T0 + 4 * MIN, stepMs: MIN, timeframe: '1m' });
    for (let i = 0; i < 5; i++) {
      expect(feed.nextCandleTime).toBe(T0 + i * MIN);
      const view = await feed.next(1_000_000 + i);
      expect(view.get('BTCUSDT')).toMatchObject({ ts: 1_000_000 + i, last: 42_000 + 10 * (i + 1) });
      expect(view.get('ETHUSDT')).toMatchObject({ ts: 1_000_000 + i, last: 2_300 + (i + 1) });
      expect(view.get('BTCUSDT')!.fundingRate).toBeNull();
    }
    expect(feed.remaining).toBe(0);
    expect(feed.nextCandleTime).toBeNull();
    await expect(feed.next(2_000_000)).rejects.toBeInstanceOf(FeedExhaustedError);
    await expect(feed.next(2_000_000)).rejects.toThrow(
      /market data exhausted: the last candle .* \(open 2024-01-01T00:04:00\.000Z\)/,
    );
  });

  it('refuses a symbol that starts later or ends earlier than the replay, naming it', async () => {
    const late = dirs.make({
      'candles/BTCUSDT.csv': csv(CANDLE_HEADER, candles(10)),
      'candles/ETHUSDT.csv': csv(CANDLE_HEADER, candles(8, T0 + 2 * MIN)),
    });
    await expect(createFileFeed({ dir: late, instruments: [BTC, ETH] })).rejects.toThrow(
      /^candles\/ETHUSDT\.csv: ETHUSDT starts at 1704067320000 \(2024-01-01T00:02:00\.000Z\), after the replay's first candle 1704067200000/,
    );
    // A window both cover is fine.
    const feed = await createFileFeed({ dir: late, instruments: [BTC, ETH], from: T0 + 2 * MIN });
    expect(feed.range.first).toBe(T0 + 2 * MIN);
    const early = dirs.make({
      'candles/BTCUSDT.csv': csv(CANDLE_HEADER, candles(10)),
      'candles/ETHUSDT.csv': csv(CANDLE_HEADER, candles(7)),
    });
    await expect(createFileFeed({ dir: early, instruments: [BTC, ETH] })).rejects.toThrow(
      /^candles\/ETHUSDT\.csv: ETHUSDT ends at .*00:06:00\.000Z\), before/,
    );
    await expect(createFileFeed({ dir: early, instruments: [BTC, { ...ETH, symbol: 'SOLUSDT' }] })).rejects.toThrow(
      /candles\/: has no file for SOLUSDT/,
    );
  });

  it('takes history from before from, rounds from up onto the grid and treats to as exclusive', async () => {
    const rows = candles(100);
    const dir = dirs.make({ 'candles/BTCUSDT.csv': csv(CANDLE_HEADER, rows) });
    const feed = await createFileFeed({
      dir,
      instruments: [BTC],
      from: T0 + 70 * MIN - 30_000,
      to: T0 + 73 * MIN,
      historyLength: 60,
    });
    expect(feed.range).toMatchObject({ first: T0 + 70 * MIN, last: T0 + 72 * MIN });
    const snap = (await feed.next(0)).get('BTCUSDT')!;
    expect(Array.from(snap.bars.close)).toEqual(rows.slice(11, 71).map((r) => r[4]));
    expect(snap.volume).toBe(rows.slice(11, 71).reduce((sum, r) => sum + r[5], 0));
    expect(snap.last).toBe(rows[70]![4]);
    expect(feed.remaining).toBe(2);
  });

  it('starts a replay after its warm-up: the first cycle already has the whole history (issue 19)', async () => {
    const rows = candles(100);
    const dir = dirs.make({ 'candles/BTCUSDT.csv': csv(CANDLE_HEADER, rows) });
    // Without from, the first replayed candle is the fifth: four candles of history before it.
    const start = await createFileFeed({ dir, instruments: [BTC], historyLength: 5, warmUp: 5 });
    expect(start.range.first).toBe(T0 + 4 * MIN);
    expect(start.warmUp).toEqual({ bars: 4, movedFrom: T0 });
    const bars = (await start.next(0)).get('BTCUSDT')!.bars;
    expect(Array.from(bars.close)).toEqual(rows.slice(0, 5).map((r) => r[4]));
    expect(Array.from(bars.open)).toEqual(rows.slice(0, 5).map((r) => r[1]));
    expect(Array.from(bars.time)).toEqual(rows.slice(0, 5).map((r) => r[0]));
    // A from inside the warm-up moves forward to it; history the file does not have is an error.
    const moved = await createFileFeed({ dir, instruments: [BTC], historyLength: 60, warmUp: 60, from: T0 + 10 * MIN });
    expect(moved.range.first).toBe(T0 + 59 * MIN);
    await expect(createFileFeed({ dir, instruments: [BTC], historyLength: 101, warmUp: 101 })).rejects.toThrow(
      /too little data: the strategies need 101 candles of history/,
    );
  });

  it('moves a from inside the warm-up to where every symbol has its history, however late a symbol starts', async () => {
    // ETH starts two candles after BTC. With three candles of history and from = ETH's start, the
    // first cycle is the one with two candles before it in both files: ETH's third candle. It was
    // refused ("only 0 candles before") though moving forward is what a warm-up does.
    const dir = dirs.make({
      'candles/BTCUSDT.csv': csv(CANDLE_HEADER, candles(10)),
      'candles/ETHUSDT.csv': csv(CANDLE_HEADER, candles(8, T0 + 2 * MIN)),
    });
    const feed = await createFileFeed({
      dir,
      instruments: [BTC, ETH],
      historyLength: 3,
      warmUp: 3,
      from: T0 + 2 * MIN,
    });
    expect(feed.range.first).toBe(T0 + 4 * MIN);
    expect(feed.warmUp).toEqual({ bars: 2, movedFrom: T0 + 2 * MIN });
    const view = await feed.next(0);
    expect(view.get('ETHUSDT')!.bars.length).toBe(3);
    expect(view.get('BTCUSDT')!.bars.length).toBe(3);
    // A from before all the data starts where the data does, after its warm-up.
    const early = await createFileFeed({ dir, instruments: [BTC], historyLength: 3, warmUp: 3, from: T0 - 60 * MIN });
    expect(early.range.first).toBe(T0 + 2 * MIN);
    // A window that begins before a symbol's first candle is still refused, by name.
    await expect(
      createFileFeed({ dir, instruments: [BTC, ETH], historyLength: 3, warmUp: 3, from: T0 + MIN }),
    ).rejects.toThrow(/ETHUSDT starts at .*, after the replay's first candle/);
  });

  it('derives a ten-level book on the tick and lot grids, the same every time', async () => {
    const dir = dirs.make({
      'candles/ETHUSDT.csv': csv(CANDLE_HEADER, [
        [T0, 2300.01, 2312.37, 2291.5, 2305.55, 812.5],
        [T0 + MIN, 2305.55, 2305.55, 2305.55, 2305.55, 0],
      ]),
    });
    const books = [];
    for (let run = 0; run < 2; run++) {
      const feed = await createFileFeed({ dir, instruments: [ETH] });
      books.push((await feed.next(0)).get('ETHUSDT')!, (await feed.next(0)).get('ETHUSDT')!);
    }
    expect(books[2]).toEqual(books[0]);
    const [wide, flat] = books as [NonNullable<(typeof books)[0]>, NonNullable<(typeof books)[0]>];
    for (const s of [wide, flat]) {
      expect(s.bids).toHaveLength(10);
      expect(s.asks).toHaveLength(10);
      expect(s.bid).toBeLessThanOrEqual(s.last);
      expect(s.ask).toBeGreaterThanOrEqual(s.last);
      for (const level of [...s.bids, ...s.asks]) {
        expect(isOnStep(level.price, ETH.tickSize), String(level.price)).toBe(true);
        expect(isOnStep(level.qty, ETH.lotSize), String(level.qty)).toBe(true);
        expect(level.qty).toBeGreaterThan(0);
      }
      for (let i = 1; i < 10; i++) {
        expect(s.bids[i]!.price).toBeLessThan(s.bids[i - 1]!.price);
        expect(s.asks[i]!.price).toBeGreaterThan(s.asks[i - 1]!.price);
      }
    }
    // Range 20.87: spread 1 % → 0.21, level gap 5 % → 1.04; touch 2 % of 812.5 × 2305.55 per minute.
    expect(wide.bid).toBe(2305.45);
    expect(wide.ask).toBe(2305.66);
    expect(wide.bids[1]!.price).toBe(2304.41);
    expect(wide.bids[0]!.qty).toBe(16.25);
    expect(wide.asks[1]!.qty).toBeLessThan(wide.asks[0]!.qty);
    // A candle with no range and no volume: one-tick spread, one lot a level.
    expect(flat.ask - flat.bid).toBeCloseTo(0.01, 10);
    expect(flat.bids.every((l) => l.qty === 0.01)).toBe(true);
  });

  it('announces funding for perpetuals with settlement times shifted like the clock', async () => {
    const rows = candles(24, T0, 100, 0.1, 60 * MIN); // hourly
    const dir = dirs.make({
      'candles/BTCUSDT.csv': csv(CANDLE_HEADER, rows),
      'funding/BTCUSDT.csv': csv(FUNDING_HEADER, [
        [T0, 0.0001],
        [T0 + H8, 0.0003],
        [T0 + 2 * H8, -0.0002],
      ]),
    });
    const perp: Instrument = { ...BTC, kind: 'perp' };
    const shift = 5 * 86_400_000 + 123;
    const seen = [];
    const feed = await createFileFeed({ dir, instruments: [perp] });
    const ahead = await createFileFeed({ dir, instruments: [perp], funding: 'next-settlement' });
    for (let i = 0; i < 24; i++) {
      const close = T0 + (i + 1) * 60 * MIN;
      const s = (await feed.next(close + shift)).get('BTCUSDT')!;
      const a = (await ahead.next(close)).get('BTCUSDT')!;
      seen.push([s.fundingRate, s.nextFundingTs! - shift, a.fundingRate, a.nextFundingTs]);
    }
    // Candle closing 01:00: settled 00:00 at 0.0001, next settlement 08:00 (which will be 0.0003).
    expect(seen[0]).toEqual([0.0001, T0 + H8, 0.0003, T0 + H8]);
    // Candle closing 08:00: that settlement has happened; next is 16:00.
    expect(seen[7]).toEqual([0.0003, T0 + 2 * H8, -0.0002, T0 + 2 * H8]);
    // Past the file's last settlement the times continue on its interval, at the last rate.
    expect(seen[23]).toEqual([-0.0002, T0 + 4 * H8, -0.0002, T0 + 4 * H8]);

    const noFunding = dirs.make({ 'candles/BTCUSDT.csv': csv(CANDLE_HEADER, rows) });
    await expect(createFileFeed({ dir: noFunding, instruments: [perp] })).rejects.toThrow(
      /^funding\/BTCUSDT\.csv: BTCUSDT is a perpetual but its funding rates are missing/,
    );
  });

  it("reads the manifest's instruments, which override the built-in ones for those symbols", async () => {
    const manifest = {
      format: 1,
      exchange: 'binanceusdm',
      timeframe: '1m',
      instruments: {
        BTCUSDT: { kind: 'perp', lotSize: 0.0001, tickSize: 0.5, minNotional: 100, ccxtSymbol: 'BTC/USDT:USDT' },
      },
      from: '2024-01-01T00:00:00Z',
      to: '2024-01-01T00:05:00Z',
    };
    const dir = dirs.make({
      'manifest.json': JSON.stringify(manifest),
      'candles/BTCUSDT.csv': csv(CANDLE_HEADER, candles(5)),
    });
    const declared = await readManifestInstruments(dir);
    expect(declared).toEqual([{ symbol: 'BTCUSDT', kind: 'perp', lotSize: 0.0001, tickSize: 0.5, minNotional: 100 }]);
    expect(applyManifestInstruments([BTC, ETH], declared)).toEqual([declared[0], ETH]);
    expect(await readManifestInstruments(dirs.make({}))).toEqual([]);
    const bad = dirs.make({ 'manifest.json': JSON.stringify({ ...manifest, timeframe: '2m' }) });
    await expect(readManifestInstruments(bad)).rejects.toThrow(/^manifest\.json: "timeframe" must be one of 1m, 3m/);
  });
});

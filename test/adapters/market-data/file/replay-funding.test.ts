/**
 * Funding in a replay, as the exchange settled it (issue 22, item 1): the file feed drives the
 * paper venue over a flat market while a long of 99.99 is held through the file's settlements at
 * 00:00, 08:00 and 16:00 (+0.1 %, −0.2 %, +0.3 %). Each settlement must be paid at its own rate,
 * while the rate a strategy sees before a settlement is still only the last settled one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument, MarketView } from '../../../../src/domain/market.js';
import { createFileFeed } from '../../../../src/adapters/market-data/file/index.js';
import { createFundingSchedule } from '../../../../src/adapters/market-data/file/funding-schedule.js';
import { openPaperVenue } from '../../../../src/adapters/paper-venue/index.js';
import { createMemoryKv } from '../../../support/memory-kv.js';
import { CANDLE_HEADER, FUNDING_HEADER, T0, csv, tempDirs } from './data-dirs.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const H = 3_600_000;
const PERP: Instrument = { symbol: 'TESTUSDT', kind: 'perp', lotSize: 0.01, tickSize: 0.01, minNotional: 5 };

/** Hourly flat candles at 100 from 22:00 the day before to 17:00, and the three settlements. */
function fixture(): string {
  const rows = Array.from({ length: 19 }, (_, i) => [T0 - 2 * H + i * H, 100, 100, 100, 100, 1_000_000]);
  return dirs.make({
    'candles/TESTUSDT.csv': csv(CANDLE_HEADER, rows),
    'funding/TESTUSDT.csv': csv(FUNDING_HEADER, [
      [T0, 0.001],
      [T0 + 8 * H, -0.002],
      [T0 + 16 * H, 0.003],
    ]),
  });
}

describe('replayed funding', () => {
  it('pays each settlement at its own rate: the fixture pays −0.2 % at 08:00', async () => {
    const feed = await createFileFeed({ dir: fixture(), instruments: [PERP] });
    let now = 0;
    const venue = await openPaperVenue({ kv: createMemoryKv(), instruments: [PERP], clock: { now: () => now } });
    const fundingAt = new Map<number, number>(); // settlement time → funding paid (+) / received (−) by the long
    const announced = new Map<number, number | null>(); // candle close time → rate a strategy sees
    let paid = 0;
    let mark = 0;
    while (feed.remaining > 0) {
      now = feed.nextCandleTime! + H;
      const market: MarketView = await feed.next(now);
      announced.set(now, market.get(PERP.symbol)!.fundingRate);
      if (now === T0 - H) {
        const fill = await venue.submit(
          {
            clientOrderId: 'long',
            symbol: PERP.symbol,
            side: 'BUY',
            qty: 99.99,
            type: 'market',
            limitPrice: null,
            reduceOnly: false,
          },
          market,
        );
        expect(fill.order.status).toBe('filled');
      }
      await venue.onMarket(market);
      const account = await venue.account();
      mark = account.positions[0]!.markPrice;
      if (-account.fundingPnl !== paid) fundingAt.set(now, -account.fundingPnl - paid);
      paid = -account.fundingPnl;
    }
    // The flat candle's book is 100 / 100.01: the long is 99.99 × 100.005 = 9,999.5 of notional.
    expect(mark).toBe(100.005);
    const notional = 99.99 * mark;
    expect(fundingAt.get(T0 + 8 * H)).toBeCloseTo(-0.002 * notional, 8); // receives 19.999
    expect([...fundingAt.keys()]).toEqual([T0, T0 + 8 * H, T0 + 16 * H]);
    expect(fundingAt.get(T0)).toBeCloseTo(0.001 * notional, 8); // pays 9.9995
    expect(fundingAt.get(T0 + 16 * H)).toBeCloseTo(0.003 * notional, 8); // pays 29.9985

    // No look-ahead: before each settlement a strategy sees only the last settled rate.
    expect(announced.get(T0 - H)).toBe(0);
    expect(announced.get(T0 + 7 * H)).toBe(0.001);
    expect(announced.get(T0 + 15 * H)).toBe(-0.002);
    expect(announced.get(T0 + 16 * H)).toBe(0.003);
  });

  it("lists the settlements since the previous snapshot, on the caller's clock, whatever the announcement policy", async () => {
    const dir = fixture();
    const shift = 3 * 86_400_000 + 7;
    for (const funding of ['last-settled', 'next-settlement'] as const) {
      const feed = await createFileFeed({ dir, instruments: [PERP], funding });
      const settled = new Map<number, unknown>();
      while (feed.remaining > 0) {
        const close = feed.nextCandleTime! + H;
        settled.set(close, (await feed.next(close + shift)).get(PERP.symbol)!.settledFunding);
      }
      expect(settled.get(T0 - H)).toEqual([]);
      expect(settled.get(T0)).toEqual([{ ts: T0 + shift, rate: 0.001 }]);
      expect(settled.get(T0 + 8 * H - H)).toEqual([]);
      expect(settled.get(T0 + 8 * H)).toEqual([{ ts: T0 + 8 * H + shift, rate: -0.002 }]);
      expect(settled.get(T0 + 16 * H)).toEqual([{ ts: T0 + 16 * H + shift, rate: 0.003 }]);
    }
  });

  it("past the file's last settlement, lists the continued settlements at the last rate", () => {
    const schedule = createFundingSchedule(
      { count: 2, ts: Float64Array.from([T0, T0 + 8 * H]), rate: Float64Array.from([0.001, -0.002]) },
      'last-settled',
    );
    expect(schedule.at(T0 + 8 * H + 1)).toEqual({
      rate: -0.002,
      nextTs: T0 + 16 * H,
      settled: [{ ts: T0 + 8 * H, rate: -0.002 }],
    });
    expect(schedule.at(T0 + 16 * H)).toEqual({
      rate: -0.002,
      nextTs: T0 + 24 * H,
      settled: [{ ts: T0 + 16 * H, rate: -0.002 }],
    });
    expect(schedule.at(T0 + 41 * H).settled).toEqual([
      { ts: T0 + 24 * H, rate: -0.002 },
      { ts: T0 + 32 * H, rate: -0.002 },
      { ts: T0 + 40 * H, rate: -0.002 },
    ]);
  });

  it('lists every settlement inside a long bar, each with its own rate (1 h funding, 4 h asks)', () => {
    const hourly = Array.from({ length: 12 }, (_, k) => T0 + k * H);
    const schedule = createFundingSchedule(
      { count: 12, ts: Float64Array.from(hourly), rate: Float64Array.from(hourly.map((_, k) => k / 10_000)) },
      'last-settled',
    );
    expect(schedule.at(T0 + 3 * H).settled).toEqual([{ ts: T0 + 3 * H, rate: 0.0003 }]);
    expect(schedule.at(T0 + 7 * H).settled).toEqual([4, 5, 6, 7].map((k) => ({ ts: T0 + k * H, rate: k / 10_000 })));
  });
});

/**
 * Where a replay's orders fill (issue 22, item 2), as the file feed tells the paper venue through
 * `snapshot.execution`: under next_open (the default) the taker book is the one the decided-on
 * candle implies, moved to the next candle's open, and none on the last candle; under close it is the
 * snapshot's own. The bar's range and volume are given for resting limits. Strategies never see any
 * of it: their snapshot has no `execution`. And a manifest's per-symbol fees are read and checked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Instrument } from '../../../../src/domain/market.js';
import { strategySnapshot } from '../../../../src/domain/strategy-input.js';
import { createFileFeed, readManifest } from '../../../../src/adapters/market-data/file/index.js';
import { CANDLE_HEADER, MIN, T0, csv, tempDirs } from './data-dirs.js';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const BTC: Instrument = { symbol: 'BTCUSDT', kind: 'spot', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };

/** The gap: a candle closing at 110, the next opening at 120, then one more. */
const GAP = csv(CANDLE_HEADER, [
  [T0, 109, 110.5, 108.5, 110, 1_000],
  [T0 + MIN, 120, 120.5, 119.5, 120, 2_000],
  [T0 + 2 * MIN, 120, 121, 119, 120.5, 3_000],
]);

describe('file feed: fill models', () => {
  it('next_open (default): the taker book of the candle closing at 110 sits at the next open, 120', async () => {
    const feed = await createFileFeed({ dir: dirs.make({ 'candles/BTCUSDT.csv': GAP }), instruments: [BTC] });
    const s = (await feed.next(T0 + MIN)).get('BTCUSDT')!;
    // The strategy's own book is still the close's.
    expect([s.last, s.bid, s.ask]).toEqual([110, 110, 110.1]);
    const taker = s.execution!.taker()!;
    expect([taker.bid, taker.ask]).toEqual([120, 120.1]);
    expect(taker.asks[0]!.price).toBe(120.1);
    // The spread and level gap are the decided-on candle's (range 2: one tick and 0.1), not the next one's.
    expect(taker.asks[1]!.price - taker.asks[0]!.price).toBeCloseTo(0.1, 9);
    expect(s.execution).toMatchObject({ high: 110.5, low: 108.5, volume: 1_000 });
  });

  it("next_open on the data's last candle has no taker book: there is no next open to fill at", async () => {
    const feed = await createFileFeed({ dir: dirs.make({ 'candles/BTCUSDT.csv': GAP }), instruments: [BTC] });
    await feed.next(T0 + MIN);
    expect((await feed.next(T0 + 2 * MIN)).get('BTCUSDT')!.execution!.taker()).not.toBeNull();
    expect((await feed.next(T0 + 3 * MIN)).get('BTCUSDT')!.execution!.taker()).toBeNull();
  });

  it('the next candle beyond --to still gives the open (it exists; only its open is used)', async () => {
    const dir = dirs.make({ 'candles/BTCUSDT.csv': GAP });
    const feed = await createFileFeed({ dir, instruments: [BTC], to: T0 + MIN });
    expect(feed.remaining).toBe(1);
    expect((await feed.next(T0 + MIN)).get('BTCUSDT')!.execution!.taker()!.bid).toBe(120);
  });

  it("close: the taker book is the snapshot's own (the close the strategy saw)", async () => {
    const dir = dirs.make({ 'candles/BTCUSDT.csv': GAP });
    const feed = await createFileFeed({ dir, instruments: [BTC], fillModel: 'close' });
    const s = (await feed.next(T0 + MIN)).get('BTCUSDT')!;
    const taker = s.execution!.taker()!;
    expect([taker.bid, taker.ask]).toEqual([s.bid, s.ask]);
    expect(taker.asks).toBe(s.asks);
  });

  it('a strategy never receives the execution, nor anything of the next candle', async () => {
    const feed = await createFileFeed({ dir: dirs.make({ 'candles/BTCUSDT.csv': GAP }), instruments: [BTC] });
    const s = (await feed.next(T0 + MIN)).get('BTCUSDT')!;
    s.execution!.taker(); // even once the venue has asked for it
    const seen = strategySnapshot(s, null, 0, 100_000);
    expect('execution' in seen).toBe(false);
    expect(Array.from(seen.bars.open)).toEqual([109]);
    expect(Array.from(seen.bars.close)).toEqual([110]);
    expect(Math.max(seen.ask, ...seen.asks.map((l) => l.price))).toBeLessThan(120);
    // Logged or serialized, the execution shows the bar, not the next open or the candle store.
    expect(JSON.parse(JSON.stringify(s.execution))).toEqual({ high: 110.5, low: 108.5, volume: 1_000 });
  });
});

describe('manifest fees', () => {
  const instrument = { kind: 'perp', lotSize: 0.001, tickSize: 0.1, minNotional: 5 };
  const manifest = (btc: Record<string, unknown>) =>
    JSON.stringify({ format: 1, instruments: { BTCUSDT: { ...instrument, ...btc }, ETHUSDT: instrument } });

  it('reads makerFee and takerFee per symbol, only for the symbols and fields given', async () => {
    const dir = dirs.make({ 'manifest.json': manifest({ makerFee: -0.0001, takerFee: 0.0004 }) });
    expect((await readManifest(dir))!.fees).toEqual({ BTCUSDT: { makerFee: -0.0001, takerFee: 0.0004 } });
    const one = dirs.make({ 'manifest.json': manifest({ takerFee: 0.001 }) });
    expect((await readManifest(one))!.fees).toEqual({ BTCUSDT: { takerFee: 0.001 } });
  });

  it('refuses a fee outside its range or not a number, naming the field', async () => {
    for (const [btc, message] of [
      [
        { takerFee: 5 },
        /^manifest\.json: instruments\.BTCUSDT\.takerFee must be a fraction of notional from 0 to 0\.01/,
      ],
      [{ takerFee: -0.0001 }, /instruments\.BTCUSDT\.takerFee must be a fraction of notional from 0 to 0\.01/],
      [{ makerFee: -0.01 }, /instruments\.BTCUSDT\.makerFee must be a fraction of notional from -0\.001 to 0\.01/],
      [{ makerFee: '2bp' }, /instruments\.BTCUSDT\.makerFee .* got "2bp"/],
    ] as const) {
      const dir = dirs.make({ 'manifest.json': manifest(btc) });
      await expect(readManifest(dir)).rejects.toThrow(message);
    }
  });
});

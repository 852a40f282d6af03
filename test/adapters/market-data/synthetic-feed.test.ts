/**
 * The seeded synthetic feed: reproducible per seed, different across seeds, sane books on the
 * tick and lot grid, a full window of closes from the first call, spot without funding, and over
 * a few thousand steps the behaviour strategies rely on: regime changes, wider spreads when
 * volatile, trend crossovers and occasional extreme funding.
 */
import { describe, expect, it } from 'vitest';
import { createSyntheticFeed } from '../../../src/adapters/market-data/index.js';
import type { Instrument, MarketSnapshot, MarketView } from '../../../src/domain/market.js';
import { parseInstruments } from '../../../src/domain/instruments.js';

const INSTRUMENTS: Instrument[] = parseInstruments('BTCUSDT,ETHUSDT,SOLUSDT:spot,XRPUSDT');
const START = 1_700_000_000_000;
const MINUTE = 60_000;

async function run(seed: number | string, steps: number, instruments = INSTRUMENTS): Promise<MarketView[]> {
  const feed = createSyntheticFeed({ instruments, seed });
  const views: MarketView[] = [];
  for (let i = 0; i < steps; i++) views.push(await feed.next(START + i * MINUTE));
  return views;
}

function snap(view: MarketView | undefined, symbol: string): MarketSnapshot {
  const s = view?.get(symbol);
  if (s === undefined) throw new Error(`no ${symbol}`);
  return s;
}

function onGrid(value: number, step: number): boolean {
  const units = value / step;
  return Math.abs(units - Math.round(units)) < 1e-6;
}

describe('synthetic feed', () => {
  it('is deterministic: the same seed and instruments give the same sequence', async () => {
    expect(await run(42, 200)).toEqual(await run(42, 200));
    expect(await run('paper-1', 20)).toEqual(await run('paper-1', 20));
  });

  it('differs between seeds', async () => {
    const [a, b] = await Promise.all([run(1, 5), run(2, 5)]);
    expect(Array.from(snap(a[4], 'BTCUSDT').bars.close)).not.toEqual(Array.from(snap(b[4], 'BTCUSDT').bars.close));
  });

  it("keeps a symbol's path independent of the other instruments", async () => {
    const alone = await run(
      7,
      50,
      INSTRUMENTS.filter((i) => i.symbol === 'ETHUSDT'),
    );
    const together = await run(7, 50);
    expect(alone.map((v) => snap(v, 'ETHUSDT'))).toEqual(together.map((v) => snap(v, 'ETHUSDT')));
  });

  it('publishes one snapshot per instrument stamped with now', async () => {
    const feed = createSyntheticFeed({ instruments: INSTRUMENTS, seed: 3 });
    const view = await feed.next(START);
    expect([...view.keys()]).toEqual(INSTRUMENTS.map((i) => i.symbol));
    for (const s of view.values()) expect(s.ts).toBe(START);
    expect(feed.instruments).toEqual(INSTRUMENTS);
  });

  it('has a full window of closes from the first call, ending at last', async () => {
    const feed = createSyntheticFeed({ instruments: INSTRUMENTS, seed: 5, historyLength: 30 });
    for (let i = 0; i < 40; i++) {
      for (const s of (await feed.next(START + i * MINUTE)).values()) {
        expect(s.bars.close).toHaveLength(30);
        expect(s.bars.close[s.bars.close.length - 1]).toBe(s.last);
      }
    }
  });

  it('advances one close per call: the window shifts by one', async () => {
    const views = await run(9, 3);
    const a = snap(views[0], 'BTCUSDT').bars.close;
    const b = snap(views[1], 'BTCUSDT').bars.close;
    expect(b.slice(0, -1)).toEqual(a.slice(1));
  });

  it('builds sane books: bids below asks, best first, positive lot-sized qty, prices on the tick', async () => {
    const views = await run(11, 300);
    // Problems are collected and compared once: a readable list instead of thousands of expects.
    const problems: string[] = [];
    const check = (ok: boolean, what: string) => {
      if (!ok && problems.length < 20) problems.push(what);
    };
    views.forEach((view, step) => {
      for (const instrument of INSTRUMENTS) {
        const s = snap(view, instrument.symbol);
        const at = `${instrument.symbol}@${step}`;
        check(s.bid < s.ask && s.bid <= s.last && s.last <= s.ask, `${at}: bid ${s.bid} last ${s.last} ask ${s.ask}`);
        check(s.bids.length === 10 && s.asks.length === 10, `${at}: ${s.bids.length}/${s.asks.length} levels`);
        check(s.bids[0]?.price === s.bid && s.asks[0]?.price === s.ask, `${at}: best level is not the quote`);
        for (let i = 1; i < s.bids.length; i++)
          check((s.bids[i]?.price ?? 0) < (s.bids[i - 1]?.price ?? 0), `${at}: bids not best first`);
        for (let i = 1; i < s.asks.length; i++)
          check((s.asks[i]?.price ?? 0) > (s.asks[i - 1]?.price ?? 0), `${at}: asks not best first`);
        for (const level of [...s.bids, ...s.asks]) {
          check(level.qty > 0 && onGrid(level.qty, instrument.lotSize), `${at}: qty ${level.qty}`);
          check(onGrid(level.price, instrument.tickSize), `${at}: level price ${level.price} off the tick`);
        }
        for (const price of [s.last, s.bid, s.ask, ...s.bars.close])
          check(onGrid(price, instrument.tickSize), `${at}: price ${price} off the tick`);
        check(s.volume > 0 && onGrid(s.volume, instrument.lotSize), `${at}: volume ${s.volume}`);
      }
    });
    expect(problems).toEqual([]);
  });

  it('thins the book away from the touch: outer levels hold less on average', async () => {
    const views = await run(13, 300);
    let inner = 0;
    let outer = 0;
    for (const view of views) {
      const s = snap(view, 'BTCUSDT');
      inner += (s.asks[0]?.qty ?? 0) + (s.bids[0]?.qty ?? 0);
      outer += (s.asks[9]?.qty ?? 0) + (s.bids[9]?.qty ?? 0);
    }
    expect(outer).toBeLessThan(inner * 0.6);
  });

  it('gives spot no funding and perps a funding rate with the next 8-hourly funding time', async () => {
    const feed = createSyntheticFeed({ instruments: INSTRUMENTS, seed: 17 });
    const now = Date.UTC(2024, 0, 1, 9, 30);
    const view = await feed.next(now);
    expect(snap(view, 'SOLUSDT')).toMatchObject({ fundingRate: null, nextFundingTs: null });
    const perp = snap(view, 'BTCUSDT');
    expect(typeof perp.fundingRate).toBe('number');
    expect(perp.nextFundingTs).toBe(Date.UTC(2024, 0, 1, 16, 0));
    const atBoundary = snap(await feed.next(Date.UTC(2024, 0, 1, 16, 0)), 'BTCUSDT');
    expect(atBoundary.nextFundingTs).toBe(Date.UTC(2024, 0, 2, 0, 0));
  });

  it('stays driftless by default: the trend regime never leaves flat', async () => {
    const feed = createSyntheticFeed({ instruments: INSTRUMENTS.slice(0, 1), seed: 21 });
    for (let i = 0; i < 4_000; i++) {
      await feed.next(START + i * MINUTE);
      expect(feed.regime('BTCUSDT')?.trend).toBe('flat');
    }
  });

  it('switches regimes, widens spreads when volatile and (demo trend on) trends both ways over a few thousand steps', async () => {
    const feed = createSyntheticFeed({ instruments: INSTRUMENTS.slice(0, 1), seed: 21, trend: 1 });
    const vols = new Set<string>();
    const trends = new Set<string>();
    let switches = 0;
    let previous = feed.regime('BTCUSDT');
    const spreadBps: Record<string, number[]> = { calm: [], normal: [], volatile: [] };
    for (let i = 0; i < 4_000; i++) {
      const s = snap(await feed.next(START + i * MINUTE), 'BTCUSDT');
      const regime = feed.regime('BTCUSDT');
      if (regime === undefined) throw new Error('no regime');
      vols.add(regime.vol);
      trends.add(regime.trend);
      if (previous !== undefined && (previous.vol !== regime.vol || previous.trend !== regime.trend)) switches += 1;
      previous = regime;
      spreadBps[regime.vol]?.push(((s.ask - s.bid) / s.bid) * 1e4);
    }
    expect([...vols].sort()).toEqual(['calm', 'normal', 'volatile']);
    expect([...trends].sort()).toEqual(['down', 'flat', 'up']);
    expect(switches).toBeGreaterThanOrEqual(10);
    const mean = (xs: number[] | undefined) => (xs ?? []).reduce((a, b) => a + b, 0) / Math.max(1, xs?.length ?? 0);
    expect(mean(spreadBps.volatile)).toBeGreaterThan(2 * mean(spreadBps.calm));
    expect(feed.regime('NOPE')).toBeUndefined();
  });

  it('produces moving-average crossovers and sometimes extreme funding (beyond ±0.05 %)', async () => {
    const views = await run(23, 3_000, INSTRUMENTS.slice(0, 2));
    let crossovers = 0;
    let previousSign = 0;
    let extreme = 0;
    for (const view of views) {
      const s = snap(view, 'BTCUSDT');
      const mean = (xs: Float64Array) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const sign = Math.sign(mean(s.bars.close.slice(-10)) - mean(s.bars.close.slice(-30)));
      if (previousSign !== 0 && sign !== 0 && sign !== previousSign) crossovers += 1;
      if (sign !== 0) previousSign = sign;
      for (const symbol of ['BTCUSDT', 'ETHUSDT'])
        if (Math.abs(snap(view, symbol).fundingRate ?? 0) > 0.0005) extreme += 1;
    }
    expect(crossovers).toBeGreaterThan(5);
    // Sometimes, not always: between one step in a thousand and a third of the time.
    expect(extreme).toBeGreaterThan(6);
    expect(extreme).toBeLessThan(2_000);
  });

  it('finds extreme funding across several seeds', async () => {
    // Funding persists for days, so extremes come in spells: each seed is watched for about four days.
    let seedsWithExtreme = 0;
    for (const seed of [101, 102, 103, 104]) {
      const views = await run(seed, 6_000, INSTRUMENTS.slice(0, 1));
      if (views.some((v) => Math.abs(snap(v, 'BTCUSDT').fundingRate ?? 0) > 0.0005)) seedsWithExtreme += 1;
    }
    expect(seedsWithExtreme).toBeGreaterThanOrEqual(3);
  });

  it('respects start prices and validates its options', async () => {
    const feed = createSyntheticFeed({
      instruments: INSTRUMENTS.slice(0, 1),
      seed: 1,
      startPrices: { BTCUSDT: 10_000 },
    });
    const last = snap(await feed.next(START), 'BTCUSDT').last;
    expect(last).toBeGreaterThan(8_000);
    expect(last).toBeLessThan(12_000);
    expect(() => createSyntheticFeed({ instruments: INSTRUMENTS, seed: 1, stepMs: 0 })).toThrow(/stepMs/);
    expect(() => createSyntheticFeed({ instruments: INSTRUMENTS, seed: 1, historyLength: 0 })).toThrow(/historyLength/);
    expect(() => createSyntheticFeed({ instruments: INSTRUMENTS, seed: 1, startPrices: { BTCUSDT: -1 } })).toThrow(
      /start price/,
    );
  });

  it('gives each symbol its own book: BTC deepest and tightest, alts thinner and wider, unknown symbols the fallback', async () => {
    const instruments = parseInstruments('BTCUSDT,ETHUSDT,SOLUSDT,DOGEUSDT');
    const feed = createSyntheticFeed({ instruments, seed: 31 });
    const spread: Record<string, number> = {};
    const top: Record<string, number> = {};
    for (let i = 0; i < 2_000; i++) {
      for (const [symbol, s] of await feed.next(START + i * MINUTE)) {
        spread[symbol] = (spread[symbol] ?? 0) + ((s.ask - s.bid) / s.bid) * 1e4;
        top[symbol] = (top[symbol] ?? 0) + (s.bids[0]?.qty ?? 0) * s.bid + (s.asks[0]?.qty ?? 0) * s.ask;
      }
    }
    const order = (by: Record<string, number>) => Object.keys(by).sort((a, b) => (by[a] ?? 0) - (by[b] ?? 0));
    expect(order(spread)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'DOGEUSDT']);
    expect(order(top)).toEqual(['DOGEUSDT', 'SOLUSDT', 'ETHUSDT', 'BTCUSDT']);
    // The table's figures, on average over regimes and noise: BTC ≈ 0.2 bp and 2 × 400 k at the touch.
    expect((spread.BTCUSDT ?? 0) / 2_000).toBeLessThan(0.6);
    expect((top.BTCUSDT ?? 0) / 2_000).toBeGreaterThan(500_000);
    expect((spread.DOGEUSDT ?? 0) / 2_000).toBeGreaterThan(2);
  });

  it('takes per-symbol profiles from its options and refuses a bad one', async () => {
    const instruments = parseInstruments('BTCUSDT');
    const wide = createSyntheticFeed({
      instruments,
      seed: 1,
      profiles: { BTCUSDT: { spreadBps: 20, topNotional: 1_000 } },
    });
    const s = snap(await wide.next(START), 'BTCUSDT');
    expect(((s.ask - s.bid) / s.bid) * 1e4).toBeGreaterThan(5);
    expect((s.bids[0]?.qty ?? 0) * s.bid).toBeLessThan(10_000);
    expect(() => createSyntheticFeed({ instruments, seed: 1, profiles: { BTCUSDT: { volScale: 0 } } })).toThrow(
      /volScale for BTCUSDT/,
    );
    expect(() => createSyntheticFeed({ instruments, seed: 1, correlation: 1.5 })).toThrow(/correlation/);
    expect(() => createSyntheticFeed({ instruments, seed: 1, trend: -1 })).toThrow(/trend/);
    expect(() => createSyntheticFeed({ instruments, seed: 1, fundingHalfLifeHours: 0 })).toThrow(
      /fundingHalfLifeHours/,
    );
  });
});

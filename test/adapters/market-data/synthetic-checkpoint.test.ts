/**
 * Market time survives a restart: a feed resumed from a stored checkpoint continues exactly as the
 * original would have (not from the seed), and a checkpoint that does not fit the configuration is
 * handled as documented in resumeFrom: another seed or step, or a shorter window → from the seed; symbols added
 * → those from the seed, the rest continue; a damaged document → from the seed, with the field named.
 */
import { describe, expect, it } from 'vitest';
import { createSyntheticFeed } from '../../../src/adapters/market-data/index.js';
import type { MarketView } from '../../../src/domain/market.js';
import { parseInstruments } from '../../../src/domain/instruments.js';

const START = 1_700_000_000_000;
const MINUTE = 60_000;
const SYMBOLS = 'BTCUSDT,ETHUSDT,SOLUSDT:spot';

async function advance(feed: { next(now: number): Promise<MarketView> }, from: number, steps: number) {
  const views: MarketView[] = [];
  for (let i = 0; i < steps; i++) views.push(await feed.next(START + (from + i) * MINUTE));
  return views;
}

/** What a store round trip does to it. */
const stored = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('synthetic market checkpoint', () => {
  it('continues the path exactly where the checkpoint left it', async () => {
    const original = createSyntheticFeed({ instruments: parseInstruments(SYMBOLS), seed: 3 });
    await advance(original, 0, 120);
    const saved = stored(original.checkpoint());
    const resumed = createSyntheticFeed({ instruments: parseInstruments(SYMBOLS), seed: 3, resume: saved });
    expect(resumed.origin).toEqual({ resumed: ['BTCUSDT', 'ETHUSDT', 'SOLUSDT'], fresh: [], notes: [], steps: 120 });
    expect(await advance(resumed, 120, 80)).toEqual(await advance(original, 120, 80));
    expect(resumed.checkpoint().steps).toBe(200);
    // …which is not what a feed started from the seed would have done.
    const replay = await advance(createSyntheticFeed({ instruments: parseInstruments(SYMBOLS), seed: 3 }), 0, 1);
    const after = await advance(
      createSyntheticFeed({ instruments: parseInstruments(SYMBOLS), seed: 3, resume: saved }),
      120,
      1,
    );
    expect(after[0]?.get('BTCUSDT')?.last).not.toBe(replay[0]?.get('BTCUSDT')?.last);
  });

  it('starts from the seed when the checkpoint is for another seed, step or window, and says why', async () => {
    const original = createSyntheticFeed({ instruments: parseInstruments(SYMBOLS), seed: 3 });
    await advance(original, 0, 10);
    const saved = stored(original.checkpoint());
    const cases = [
      [{ seed: 4 }, /seed 3, not 4/],
      [{ seed: 3, stepMs: 5 * MINUTE }, /stepMs 60000, not 300000/],
      [{ seed: 3, historyLength: 90 }, /holds 60 bars, fewer than the 90 the strategies need/],
    ] as const;
    for (const [options, why] of cases) {
      const feed = createSyntheticFeed({ instruments: parseInstruments(SYMBOLS), ...options, resume: saved });
      expect(feed.origin.resumed).toEqual([]);
      expect(feed.origin.steps).toBe(0);
      expect(feed.origin.notes.join(' ')).toMatch(why);
      const fromSeed = createSyntheticFeed({ instruments: parseInstruments(SYMBOLS), ...options });
      expect(await advance(feed, 0, 5)).toEqual(await advance(fromSeed, 0, 5));
    }
  });

  it('serves a shorter window from a longer saved one: the market goes on, the newest bars kept (issue 19)', async () => {
    const original = createSyntheticFeed({ instruments: parseInstruments(SYMBOLS), seed: 3, historyLength: 90 });
    await advance(original, 0, 10);
    const feed = createSyntheticFeed({
      instruments: parseInstruments(SYMBOLS),
      seed: 3,
      historyLength: 30,
      resume: stored(original.checkpoint()),
    });
    expect(feed.origin).toMatchObject({ steps: 10, notes: [] });
    const [a] = await advance(feed, 10, 1);
    const [b] = await advance(original, 10, 1);
    const short = a!.get('BTCUSDT')!.bars;
    const long = b!.get('BTCUSDT')!.bars;
    expect(short.length).toBe(30);
    expect(Array.from(short.close)).toEqual(Array.from(long.close).slice(-30));
    expect(Array.from(short.high)).toEqual(Array.from(long.high).slice(-30));
    expect(Array.from(short.time)).toEqual(Array.from(long.time).slice(-30));
  });

  it('continues the symbols it holds, starts added ones from the seed and drops removed ones', async () => {
    const original = createSyntheticFeed({ instruments: parseInstruments(SYMBOLS), seed: 8 });
    await advance(original, 0, 50);
    const saved = stored(original.checkpoint());
    // ETH removed, XRP added, SOL now a perpetual.
    const feed = createSyntheticFeed({
      instruments: parseInstruments('BTCUSDT,SOLUSDT,XRPUSDT'),
      seed: 8,
      resume: saved,
    });
    expect(feed.origin.resumed).toEqual(['BTCUSDT']);
    expect(feed.origin.fresh).toEqual(['SOLUSDT', 'XRPUSDT']);
    expect(feed.origin.notes.join('\n')).toMatch(/SOLUSDT was saved as spot, now perp/);
    expect(feed.origin.notes.join('\n')).toMatch(/XRPUSDT is not in the checkpoint/);
    expect(feed.origin.notes.join('\n')).toMatch(/dropped from the market: ETHUSDT/);
    const [view] = await advance(feed, 50, 1);
    const [expected] = await advance(original, 50, 1);
    expect(view?.get('BTCUSDT')).toEqual(expected?.get('BTCUSDT'));
    expect(view?.get('XRPUSDT')?.bars.close).toHaveLength(60);
    expect(view?.get('SOLUSDT')?.fundingRate).toEqual(expect.any(Number));
    expect(Object.keys(feed.checkpoint().symbols)).toEqual(['BTCUSDT', 'SOLUSDT', 'XRPUSDT']);
  });

  it('names the damaged field of a checkpoint it cannot use, and starts from the seed', async () => {
    const original = createSyntheticFeed({ instruments: parseInstruments('BTCUSDT'), seed: 1 });
    await advance(original, 0, 3);
    const good = original.checkpoint();
    const damaged: Array<[unknown, RegExp]> = [
      ['not a checkpoint', /checkpoint is not an object/],
      [{ ...good, format: 'v0' }, /format is "v0"/],
      [{ ...good, market: { ...good.market, vol: 'wild' } }, /market\.vol is not one of/],
      [{ ...good, market: { ...good.market, rng: [1, 2, 3] } }, /market\.rng is not four/],
      [
        { ...good, symbols: { BTCUSDT: { ...good.symbols.BTCUSDT, closes: [1, 2] } } },
        /BTCUSDT: closes and volumeLots/,
      ],
      [{ ...good, symbols: { BTCUSDT: { ...good.symbols.BTCUSDT, logPrice: null } } }, /BTCUSDT\.logPrice/],
    ];
    for (const [raw, why] of damaged) {
      const feed = createSyntheticFeed({ instruments: parseInstruments('BTCUSDT'), seed: 1, resume: stored(raw) });
      expect(feed.origin.resumed).toEqual([]);
      expect(feed.origin.notes.join(' ')).toMatch(why);
      expect(feed.origin.notes.join(' ')).toMatch(/starts from the seed/);
    }
  });
});

/**
 * When a cycle's data is too old to trade (src/domain/stale-market.ts): the liquidity guard's rule
 * (older than the limit at the cycle's time; an unreadable stamp is stale), and a spell that is news
 * only when it starts, its symbols change or it ends.
 */
import { describe, expect, it } from 'vitest';
import type { MarketSnapshot, MarketView } from '../../src/domain/market.js';
import { describeStale, marketAges, nextStaleSpell, staleSymbols } from '../../src/domain/stale-market.js';

const view = (stamps: Record<string, number>): MarketView =>
  new Map(Object.entries(stamps).map(([symbol, ts]) => [symbol, { symbol, ts } as MarketSnapshot]));

describe('stale market data', () => {
  it('is data older than the limit at the cycle time, the oldest first; at the limit is fresh', () => {
    const ages = marketAges(view({ BTCUSDT: 1_000, ETHUSDT: 5_000, SOLUSDT: 3_000, XRPUSDT: Number.NaN }), 20_000);
    expect([...ages]).toEqual([
      ['BTCUSDT', 19_000],
      ['ETHUSDT', 15_000],
      ['SOLUSDT', 17_000],
      ['XRPUSDT', null],
    ]);
    expect(staleSymbols(ages, 15_000)).toEqual([
      { symbol: 'XRPUSDT', ageMs: null },
      { symbol: 'BTCUSDT', ageMs: 19_000 },
      { symbol: 'SOLUSDT', ageMs: 17_000 },
    ]);
  });

  it('counts a stamp ahead of the clock as fresh (age 0), never negative', () => {
    const ages = marketAges(view({ BTCUSDT: 25_000 }), 20_000);
    expect(ages.get('BTCUSDT')).toBe(0);
    expect(staleSymbols(ages, 15_000)).toEqual([]);
  });

  it('is news when it starts, when its symbols change and when it ends; not when the same symbols age', () => {
    const btc = [{ symbol: 'BTCUSDT', ageMs: 19_000 }];
    const started = nextStaleSpell(null, btc, 100);
    expect(started).toEqual({ spell: { since: 100, stale: btc }, changed: true });
    const older = nextStaleSpell(started.spell, [{ symbol: 'BTCUSDT', ageMs: 39_000 }], 120);
    expect(older).toEqual({ spell: { since: 100, stale: [{ symbol: 'BTCUSDT', ageMs: 39_000 }] }, changed: false });
    const more = nextStaleSpell(older.spell, [...btc, { symbol: 'ETHUSDT', ageMs: 16_000 }], 140);
    expect(more.changed).toBe(true);
    expect(more.spell?.since).toBe(100);
    expect(nextStaleSpell(more.spell, [], 160)).toEqual({ spell: null, changed: true });
    expect(nextStaleSpell(null, [], 180)).toEqual({ spell: null, changed: false });
  });

  it('is said with each symbol, its age and the limit', () => {
    expect(
      describeStale(
        [
          { symbol: 'BTCUSDT', ageMs: 19_000.4 },
          { symbol: 'ETHUSDT', ageMs: null },
        ],
        15_000,
      ),
    ).toBe('market data too old to trade: BTCUSDT 19000 ms old, ETHUSDT of unknown age (limit FEED_STALE_MS 15000 ms)');
  });
});

/**
 * Contract for MarketFeed adapters (src/ports/market-feed.ts): what every feed (synthetic, file
 * replay, live exchange) promises the cycle and the strategies, run by one runner file each. The
 * runner opens a feed for some symbols and says what time each step is asked for (its world's clock:
 * the synthetic market's epoch, the replayed candles', the fake exchange's).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketView } from '../../src/domain/market.js';
import type { MarketFeed } from '../../src/ports/market-feed.js';

export interface FeedHarness {
  feed: MarketFeed;
  /** Moves the world's clock to the feed's `k`-th step (from 0) and returns the time to ask `next` for. */
  tick(k: number): number;
  /** Requests the feed has made to the outside so far; absent for a feed that makes none. */
  requests?(): number;
  /** Ends what the runner opened around the feed (a fake exchange), after the feed is closed. */
  close(): Promise<void>;
}

export interface MarketFeedSetup {
  /** The symbols the runner's world has (two or more). */
  symbols: readonly string[];
  /**
   * Whether opening the feed for a symbol its world lacks fails. The synthetic feed makes any symbol
   * up by design (the configuration is what holds MARKET_DATA=synthetic to the symbols it knows).
   */
  refusesUnknownSymbols: boolean;
  open(symbols: readonly string[]): Promise<FeedHarness>;
}

/** Steps each test walks: enough to see time move and bars roll, small enough to stay quick. */
const STEPS = 4;

export function marketFeedContract(name: string, setup: MarketFeedSetup): void {
  const opened: FeedHarness[] = [];

  describe(`MarketFeed contract: ${name}`, () => {
    afterEach(async () => {
      for (const h of opened.splice(0)) {
        await h.feed.close?.();
        await h.close();
      }
    });

    const open = async (symbols = setup.symbols): Promise<FeedHarness> => {
      const h = await setup.open(symbols);
      opened.push(h);
      return h;
    };
    /**
     * `STEPS` steps, each view checked by `check` before the next: a snapshot's bars are views of the
     * feed's memory, valid for their cycle only (src/domain/bars.ts).
     */
    const walk = async (h: FeedHarness, check: (view: MarketView, now: number) => void): Promise<void> => {
      for (let k = 0; k < STEPS; k++) {
        const now = h.tick(k);
        check(await h.feed.next(now), now);
      }
    };

    it('its instruments are the configured symbols, and every step has a snapshot of each', async () => {
      const h = await open();
      expect(h.feed.instruments.map((i) => i.symbol)).toEqual([...setup.symbols]);
      await walk(h, (view) => {
        expect([...view.keys()].sort()).toEqual([...setup.symbols].sort());
        for (const [symbol, snap] of view) expect(snap.symbol).toBe(symbol);
      });
    });

    it('time never goes back, and no snapshot is stamped after the time it was asked for', async () => {
      const h = await open();
      const last = new Map<string, number>();
      await walk(h, (view, now) => {
        for (const [symbol, snap] of view) {
          expect(snap.ts).toBeLessThanOrEqual(now);
          expect(snap.ts).toBeGreaterThanOrEqual(last.get(symbol) ?? -Infinity);
          last.set(symbol, snap.ts);
        }
      });
    });

    it('the book is sorted best first (bids descending, asks ascending), its tops are bid and ask, and bid < ask', async () => {
      const h = await open();
      await walk(h, (view) => {
        for (const snap of view.values()) {
          expect(snap.bid).toBeLessThan(snap.ask);
          expect(snap.bids[0]?.price).toBe(snap.bid);
          expect(snap.asks[0]?.price).toBe(snap.ask);
          for (let i = 1; i < snap.bids.length; i++) expect(snap.bids[i]!.price).toBeLessThan(snap.bids[i - 1]!.price);
          for (let i = 1; i < snap.asks.length; i++)
            expect(snap.asks[i]!.price).toBeGreaterThan(snap.asks[i - 1]!.price);
          for (const level of [...snap.bids, ...snap.asks]) expect(level.qty).toBeGreaterThan(0);
        }
      });
    });

    it('bars are closed candles only: oldest first, none closing after the snapshot, the last closing at `last`', async () => {
      const h = await open();
      const barMs = h.feed.barMs ?? 60_000;
      await walk(h, (view) => {
        for (const snap of view.values()) {
          const { bars } = snap;
          expect(bars.length).toBeGreaterThan(0);
          for (let i = 1; i < bars.length; i++) expect(bars.time[i]).toBeGreaterThan(bars.time[i - 1]!);
          expect(bars.time[bars.length - 1]! + barMs).toBeLessThanOrEqual(snap.ts);
          expect(bars.close[bars.length - 1]).toBe(snap.last);
        }
      });
    });

    it('close() ends it: it resolves (twice too) and nothing is fetched afterwards', async () => {
      const h = await open();
      await h.feed.next(h.tick(0));
      await h.feed.close?.();
      await h.feed.close?.();
      const before = h.requests?.() ?? 0;
      // What a closed feed still answers is its business; it must not reach out for it.
      await h.feed.next(h.tick(1)).catch(() => undefined);
      expect(h.requests?.() ?? 0).toBe(before);
    });

    it.runIf(setup.refusesUnknownSymbols)('a symbol its world lacks is refused with an error naming it', async () => {
      await expect(setup.open([setup.symbols[0]!, 'NOPEUSDT'])).rejects.toThrow(/NOPEUSDT/);
    });
  });
}

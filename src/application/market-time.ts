/**
 * Market time that survives a restart. The paper account persists in the store, so a market that
 * restarted from its seed would mark the same positions against a different path (the BTC mark
 * jumped 7.5 % in the first cycle after a restart). The feed's checkpoint is therefore saved in the
 * key-value store after every market read, through the fenced store (a process that lost the lease
 * writes nothing), and read back at start; the feed decides what of it still fits.
 */
import type { MarketView } from '../domain/market.js';
import type { KeyValueStore } from '../ports/key-value-store.js';
import type { MarketFeed } from '../ports/market-feed.js';

export const MARKET_CHECKPOINT_KEY = 'trading:market-checkpoint';

/** A feed whose whole state can be captured as plain JSON (the synthetic feed). */
export interface CheckpointedFeed extends MarketFeed {
  checkpoint(): unknown;
}

/** The checkpoint the last process saved, or null on a first start. */
export async function savedMarketCheckpoint(kv: KeyValueStore): Promise<unknown> {
  return kv.get(MARKET_CHECKPOINT_KEY);
}

/**
 * `feed` with its checkpoint saved after each `next()`. The save is awaited: the cycle that read
 * this market goes on only once the market's position is stored, so a crash at any point restarts
 * at most one step behind the account, never ahead of it by a replay.
 */
export function persistingFeed(feed: CheckpointedFeed, kv: KeyValueStore): MarketFeed {
  return {
    instruments: feed.instruments,
    ...(feed.barMs === undefined ? {} : { barMs: feed.barMs }),
    async next(now: number): Promise<MarketView> {
      const view = await feed.next(now);
      await kv.set(MARKET_CHECKPOINT_KEY, feed.checkpoint());
      return view;
    },
  };
}

/** Public entry of the market data adapters: the seeded synthetic feed (the default). */
export { createSyntheticFeed, DEFAULT_START_PRICES } from './synthetic-feed.js';
export type { SyntheticFeed, SyntheticFeedOptions } from './synthetic-feed.js';
export type { TrendRegime, VolRegime } from './regimes.js';

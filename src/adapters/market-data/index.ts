/** Public entry of the market data adapters: the seeded synthetic feed (the default). */
export { createSyntheticFeed, SYNTHETIC_SYMBOLS } from './synthetic-feed.js';

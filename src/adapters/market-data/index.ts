/** Public entry of the market data adapters: the seeded synthetic feed (the default). */
export { createSyntheticFeed } from './synthetic-feed.js';

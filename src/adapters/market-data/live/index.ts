/** Public entry of the live market data adapter (ccxt, loaded lazily inside). */
export { createLiveFeed } from './live-feed.js';
export type { ElapsedTime, LiveFeed, LiveFeedOptions, FeedLog } from './live-feed.js';

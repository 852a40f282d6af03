/**
 * Public entry of the historical replay (`MARKET_DATA=file:<dir>`): the feed, the manifest's
 * instruments (they override the built-in table for those symbols), and the whole-directory check
 * behind `tcs data check`.
 */
export { createFileFeed, FeedExhaustedError } from './file-feed.js';
export type { FileFeed, FileFeedOptions } from './file-feed.js';
export type { FundingPolicy } from './funding-schedule.js';
export { applyManifestInstruments, readManifest, readManifestInstruments } from './manifest.js';
export type { Manifest } from './manifest.js';
export { indexDataDir, loadDataDir } from './data-dir.js';
export type { CandleRows } from './candle-rows.js';
export type { DataDirectory, SymbolData } from './data-dir.js';
export { DataFileError } from './data-errors.js';
export { assertPerpetualsFunded } from './perp-funding.js';
export { TIMEFRAMES } from '../../../domain/timeframes.js';

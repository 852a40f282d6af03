/** Public entry of the paper venue adapter: open it, configure it, find its stored account. */
export { openPaperVenue } from './paper-venue.js';
export type { PaperVenueOptions } from './paper-venue.js';
export { DEFAULT_PAPER_VENUE_CONFIG, resolvePaperVenueConfig } from './config.js';
export type { ImpactModel, PaperVenueConfig, PaperVenueConfigInput } from './config.js';
export { PAPER_STATE_KEY } from './persistence.js';
export type { PaperStateDocument } from './persistence.js';

/** Public entry of the paper venue adapter: open it, configure it, find its stored account. */
export { openPaperVenue } from './paper-venue.js';
export type { PaperVenueConfigInput } from './config.js';
export { PAPER_STATE_KEY } from './persistence.js';
export type { PaperStateDocument } from './persistence.js';

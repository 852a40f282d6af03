/**
 * The authenticated exchange client, now opened by the one opener (src/adapters/exchanges/open-exchange.ts);
 * re-exported here for the tests that open it by this path.
 */
export { openLiveExchange } from '../exchanges/open-exchange.js';

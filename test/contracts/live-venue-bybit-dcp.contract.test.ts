/**
 * The Venue contract on the live venue against the Bybit fake with Bybit's DCP held (the profile's
 * `disconnectCancel` switched on for this file only: it is null in the registry until checked on
 * Bybit, docs/operate/bybit.md): the held switch's own case runs, and every other promise holds
 * with the switch's connection open beside the venue.
 */
import { BYBIT, BYBIT_DCP } from '../../src/adapters/exchanges/bybit.js';
import { BYBIT_DIALECT } from '../support/fake-exchange/dialects/bybit/index.js';
import { liveVenueContract } from './live-venue-runner.js';

(BYBIT as { disconnectCancel?: typeof BYBIT.disconnectCancel }).disconnectCancel = BYBIT_DCP;

liveVenueContract({
  ...BYBIT_DIALECT.venueContract,
  name: `${BYBIT_DIALECT.venueContract.name}, DCP held`,
  dialect: BYBIT_DIALECT,
});

/**
 * The Venue contract (./venue.contract.ts) on the live venue against every exchange the fake speaks
 * (test/support/fake-exchange/dialect-registry.ts), each driving a real ccxt client of that exchange
 * with its profile's options (./live-venue-runner.ts). What each exchange is expected to do — the
 * capabilities built for it, its refusal codes, its order path — is its dialect's `venueContract`,
 * so a new exchange's run comes with its dialect.
 */
import { fakeDialects } from '../support/fake-exchange/dialect-registry.js';
import { liveVenueContract } from './live-venue-runner.js';

for (const dialect of fakeDialects()) liveVenueContract({ ...dialect.venueContract, dialect });

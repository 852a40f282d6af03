/**
 * The Venue contract on the live venue against the Bitget V2 fake (./live-venue-runner.ts), driving
 * a real ccxt bitget with the Bitget profile's options. Capabilities not built for Bitget are off,
 * each with its reason (docs/operate/bitget.md).
 */
import { BITGET_DIALECT } from '../support/fake-exchange/dialects/bitget/index.js';
import { liveVenueContract } from './live-venue-runner.js';

liveVenueContract({
  name: 'live venue on the Bitget V2 fake',
  dialect: BITGET_DIALECT,
  capabilities: {
    foreignOrders: true,
    lostAcknowledgements: true,
    protectiveStops: true,
    // Bitget's classic futures API has no cancel-all-after (src/adapters/exchanges/bitget.ts).
    deadMansSwitch: false,
    // The fake answers a rate limit as Bitget does: HTTP 429, code "429".
    rateLimits: true,
    // Bitget cancels a post-only order that would take (the fake's reading): expired, never filled.
    postOnly: true,
  },
  refusals: {
    margin: /40762/,
    reduceOnly: /22002/,
    minimum: /45110/,
    postOnly: /post-only/,
    rateLimited: /^RATE_LIMITED/,
  },
  createPath: '/api/v2/mix/order/place-order',
});

/**
 * The Venue contract on the live venue against the Binance USDⓈ-M fake (./live-venue-runner.ts):
 * every capability, the dead-man's switch (countdownCancelAll) included.
 */
import { liveVenueContract } from './live-venue-runner.js';

liveVenueContract({
  name: 'live venue on the Binance USDⓈ-M fake',
  capabilities: {
    foreignOrders: true,
    lostAcknowledgements: true,
    protectiveStops: true,
    deadMansSwitch: true,
    rateLimits: true,
    postOnly: true,
  },
  refusals: {
    margin: /\(-2019\)/,
    reduceOnly: /\(-2022\)/,
    minimum: /\(-4164\)/,
    postOnly: /\(-5022\)/,
    rateLimited: /^RATE_LIMITED/,
  },
  createPath: '/fapi/v1/order',
});

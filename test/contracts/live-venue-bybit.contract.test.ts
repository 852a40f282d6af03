/**
 * The Venue contract on the live venue against the Bybit v5 fake (./live-venue-runner.ts), driving a
 * real ccxt bybit with the Bybit profile's options. Capabilities not built for Bybit are off, each
 * with its reason (docs/operate/bybit.md).
 */
import { BYBIT_DIALECT } from '../support/fake-exchange/dialects/bybit/index.js';
import { liveVenueContract } from './live-venue-runner.js';

liveVenueContract({
  name: 'live venue on the Bybit v5 fake',
  dialect: BYBIT_DIALECT,
  capabilities: {
    foreignOrders: true,
    lostAcknowledgements: true,
    protectiveStops: true,
    // Bybit's DCP needs a private websocket; the profile has no dead-man's switch.
    deadMansSwitch: false,
    // Bybit's "too many visits" (HTTP 200, retCode 10006, the reset time in a header).
    rateLimits: true,
    // Bybit accepts a crossing post-only order and cancels it at once (EC_PostOnlyWillTakeLiquidity): expired, never filled.
    postOnly: true,
  },
  refusals: {
    margin: /\(110007\)/,
    reduceOnly: /\(110017\)/,
    minimum: /\(110094\)/,
    postOnly: /EC_PostOnlyWillTakeLiquidity/,
    rateLimited: /^RATE_LIMITED/,
  },
  createPath: '/v5/order/create',
});

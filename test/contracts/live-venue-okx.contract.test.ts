/**
 * The Venue contract on the live venue against the OKX v5 fake (./live-venue-runner.ts), driving a
 * real ccxt okx with the OKX profile's options. Capabilities not built for OKX are off, each with its
 * reason (docs/operate/okx.md).
 */
import { OKX_DIALECT } from '../support/fake-exchange/dialects/okx/index.js';
import { liveVenueContract } from './live-venue-runner.js';

liveVenueContract({
  name: 'live venue on the OKX v5 fake',
  dialect: OKX_DIALECT,
  capabilities: {
    foreignOrders: true,
    lostAcknowledgements: true,
    protectiveStops: true,
    // OKX's cancel-all-after: account-wide, at most 120 s (src/adapters/exchanges/okx.ts).
    deadMansSwitch: true,
    // The fake's 429 answers are Binance's; OKX's per-endpoint limits (50011) are not modelled.
    rateLimits: false,
    // OKX accepts a crossing post-only order and cancels it at once (cancelSource 31): expired, never filled.
    postOnly: true,
  },
  refusals: {
    margin: /51008/,
    reduceOnly: /51169/,
    minimum: /51020/,
    postOnly: /post-only/,
    rateLimited: /^RATE_LIMITED/,
  },
  createPath: '/api/v5/trade/order',
});

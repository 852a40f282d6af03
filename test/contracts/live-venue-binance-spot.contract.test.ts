/**
 * The Venue contract on the live venue against the Binance spot fake (./live-venue-runner.ts),
 * driving a real ccxt `binance` (spot markets only, the profile's options) over /api/v3. Positions
 * are base-asset balances (kind spot); reduce-only is the venue's own cap at the balance held.
 * Capabilities spot does not have are off, each with its reason (docs/operate/binance-spot.md).
 */
import { BINANCE_SPOT_DIALECT } from '../support/fake-exchange/dialects/binance-spot/index.js';
import { liveVenueContract } from './live-venue-runner.js';

liveVenueContract({
  name: 'live venue on the Binance spot fake',
  dialect: BINANCE_SPOT_DIALECT,
  kind: 'spot',
  // Binance spot's base rate, 0.1 % maker and taker (without the BNB discount).
  fees: { maker: 0.001, taker: 0.001 },
  capabilities: {
    foreignOrders: true,
    lostAcknowledgements: true,
    // No exchange stop on spot (the profile's exchangeStops is null): a STOP_LOSS_LIMIT can miss in a gap.
    protectiveStops: false,
    // Binance spot has no countdownCancelAll.
    deadMansSwitch: false,
    rateLimits: true,
    // LIMIT_MAKER: refused -2010 "Order would immediately match and take."
    postOnly: true,
  },
  refusals: {
    // A buy beyond the USDT held: -2010 "Account has insufficient balance for requested action.", which
    // ccxt matches by its message (its broad table) and reports without the code.
    margin: /^InsufficientFunds: binance Account has insufficient balance/,
    // Refused by the venue before sending: spot has no reduce-only flag.
    reduceOnly: /^REDUCE_ONLY_REJECTED/,
    minimum: /NOTIONAL \(-1013\)/,
    // -2010 "Order would immediately match and take.", by its message as above.
    postOnly: /^OrderImmediatelyFillable: binance Order would immediately match and take/,
    rateLimited: /^RATE_LIMITED/,
  },
  createPath: '/api/v3/order',
});

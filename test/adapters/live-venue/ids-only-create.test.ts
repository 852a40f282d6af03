/**
 * An exchange whose create answers with the ids only (Bybit v5: the profile's `createAnswersIdsOnly`)
 * has its order read by client id after placing. Placed is placed: if those look-ups fail for the
 * whole patience, the order is open as far as the venue knows and is polled on the next cycles, so
 * its fills are reported (found in review: it dropped out of polling for good).
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import { roundToStep } from '../../../src/domain/steps.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { BYBIT_DIALECT } from '../../support/fake-exchange/dialects/bybit/index.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';

let t: TradingFake;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000, dialect: BYBIT_DIALECT });
  await t.exchange.loadMarkets();
});

afterAll(async () => {
  await t.close();
});

it('an order placed while its look-ups fail stays open and polled, and its fill is reported later', async () => {
  let clock = 1_700_000_000_000;
  const venue = new LiveVenue({
    exchange: t.exchange,
    errors: ccxt,
    gate: gateRequests(t.exchange, { monotonic: () => clock, now: () => clock }),
    symbols: symbolMap([['BTCUSDT', 'BTC/USDT:USDT']]),
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    recvWindowMs: 10_000,
    lookupIntervalMs: 1_000,
  });
  const price = roundToStep(t.fake.venue.book(instrumentById('BTCUSDT')!).bids[0]![0] - 50, 0.1);
  // The look-ups fail from the moment the order is placed (the one before placing is answered).
  const create = t.exchange.createOrder.bind(t.exchange);
  t.exchange.createOrder = async (...args: Parameters<typeof create>) => {
    const answer = await create(...args);
    t.fake.fail('/v5/order/realtime');
    return answer;
  };
  const placed = await venue.submit({
    clientOrderId: 'ids-only-1',
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'limit',
    qty: 0.01,
    limitPrice: price,
    reduceOnly: false,
    postOnly: false,
  } as Parameters<LiveVenue['submit']>[0]);
  t.fake.fail(null);
  t.exchange.createOrder = create;
  expect(placed.order.rejectReason ?? '').toBe('');
  expect(placed.order.status).toBe('open');
  expect(t.fake.venue.open('BTCUSDT')).toHaveLength(1);
  t.fake.venue.setPrice('BTCUSDT', roundToStep(price - 0.2, 0.1));
  t.fake.venue.settle();
  t.fake.venue.setPrice('BTCUSDT', null);
  clock += 1_000;
  const update = await venue.onMarket(new Map());
  expect(update.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([['ids-only-1', 0.01]]);
  expect(venue.positionDrift()).toEqual([]);
});

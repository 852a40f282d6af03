/**
 * A user-data stream is trusted only where the exchange's profile says how its trades name our
 * orders (`userStream` in src/adapters/exchanges/<id>.ts). While a stream is up, the live venue does
 * not poll the resting orders it covers; a stream whose trades it cannot match (Bybit's, not built)
 * would then hide every fill. Here a stream that is always up and pushes nothing sits beside the live
 * venue on the Bybit fake: a resting order that fills must still be reported, by polling.
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import type { UserStream } from '../../../src/adapters/live-venue/user-stream.js';
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

it('on an exchange whose profile has no user stream, a stream that says it is up does not stop the polls', async () => {
  let clock = 1_700_000_000_000;
  const silentButUp = {
    upSince: () => 0,
    take: () => ({ orders: [], trades: [] }),
    start: () => undefined,
    stop: async () => undefined,
  } as unknown as UserStream;
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
    userStream: silentButUp,
  });
  const book = t.fake.venue.book(instrumentById('BTCUSDT')!);
  const price = roundToStep(book.bids[0]![0] - 50, 0.1);
  const placed = await venue.submit({
    clientOrderId: 'stream-profile-1',
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'limit',
    qty: 0.01,
    limitPrice: price,
    reduceOnly: false,
    postOnly: false,
  } as Parameters<LiveVenue['submit']>[0]);
  expect(placed.order.status).toBe('open');
  // The market trades through the resting buy: it fills on the exchange.
  t.fake.venue.setPrice('BTCUSDT', roundToStep(price - 0.2, 0.1));
  t.fake.venue.settle();
  t.fake.venue.setPrice('BTCUSDT', null);
  clock += 1_000;
  const update = await venue.onMarket(new Map());
  expect(update.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([['stream-profile-1', 0.01]]);
  await venue.cancelAll();
});

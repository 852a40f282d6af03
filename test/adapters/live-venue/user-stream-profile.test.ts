/**
 * A user-data stream is trusted only where the exchange's profile says how its trades name our
 * orders (`userStream` in src/adapters/exchanges/<id>.ts). While a stream is up, the live venue does
 * not poll the resting orders it covers; a stream whose trades it cannot match (Bybit's, not built)
 * would then hide every fill. Here a stream that is always up and pushes nothing sits beside the live
 * venue on the Bybit fake: a resting order that fills must still be reported, by polling.
 *
 * And on Binance, whose stream is trusted: a stream that misses a push (ccxt pro drops a push that
 * arrives while nobody awaits it, until the next one) must cost a bounded delay, never a lost fill
 * nor a false drift: the drift re-look always polls, and a covered order is polled at least every
 * STREAM_TRUST_MS all the same.
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { exchangeClientId } from '../../../src/adapters/live-venue/client-ids.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import type { UserStream } from '../../../src/adapters/live-venue/user-stream.js';
import { roundToStep } from '../../../src/domain/steps.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { BYBIT_DIALECT } from '../../support/fake-exchange/dialects/bybit/index.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';

let t: TradingFake;
let binance: TradingFake;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000, dialect: BYBIT_DIALECT });
  await t.exchange.loadMarkets();
  binance = await openTradingFake({ deposit: 100_000 });
  await binance.exchange.loadMarkets();
});

afterAll(async () => {
  await t.close();
  await binance.close();
});

const silentButUp = {
  upSince: () => 0,
  take: () => ({ orders: [], trades: [] }),
  start: () => undefined,
  stop: async () => undefined,
} as unknown as UserStream;

/** A live venue on `fake` beside a stream that is up and pushes nothing; `clock` is its time. */
function venueBesideSilentStream(fake: TradingFake, clock: { now: number }): LiveVenue {
  return new LiveVenue({
    exchange: fake.exchange,
    errors: ccxt,
    gate: gateRequests(fake.exchange, { monotonic: () => clock.now, now: () => clock.now }),
    symbols: symbolMap([['BTCUSDT', 'BTC/USDT:USDT']]),
    now: () => clock.now,
    monotonic: () => clock.now,
    sleep: async (ms) => {
      clock.now += ms;
    },
    recvWindowMs: 10_000,
    lookupIntervalMs: 1_000,
    userStream: silentButUp,
  });
}

/** A resting buy 50 below the bid, then the market trades through it on the exchange. */
async function restingBuyThatFills(fake: TradingFake, venue: LiveVenue, id: string): Promise<void> {
  const book = fake.fake.venue.book(instrumentById('BTCUSDT')!);
  const price = roundToStep(book.bids[0]![0] - 50, 0.1);
  const placed = await venue.submit({
    clientOrderId: id,
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'limit',
    qty: 0.01,
    limitPrice: price,
    reduceOnly: false,
    postOnly: false,
  } as Parameters<LiveVenue['submit']>[0]);
  expect(placed.order.status).toBe('open');
  fake.fake.venue.setPrice('BTCUSDT', roundToStep(price - 0.2, 0.1));
  fake.fake.venue.settle();
  fake.fake.venue.setPrice('BTCUSDT', null);
}

it('on Binance, a fill the stream missed is found by the drift re-look, never called drift', async () => {
  binance.reset();
  const clock = { now: 1_700_000_000_000 };
  const venue = venueBesideSilentStream(binance, clock);
  await venue.reconcile();
  await restingBuyThatFills(binance, venue, 'stream-missed-1');
  clock.now += 1_000;
  const update = await venue.onMarket(new Map());
  expect(update.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([['stream-missed-1', 0.01]]);
  expect(venue.positionDrift()).toEqual([]);
  await venue.cancelAll();
});

it('on an exchange whose profile has no user stream, a stream that says it is up does not stop the polls', async () => {
  const clock = { now: 1_700_000_000_000 };
  const venue = venueBesideSilentStream(t, clock);
  await restingBuyThatFills(t, venue, 'stream-profile-1');
  clock.now += 1_000;
  const update = await venue.onMarket(new Map());
  expect(update.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([['stream-profile-1', 0.01]]);
  await venue.cancelAll();
});

it('on Binance, an order the stream vouches for is still looked at by REST once its trust has run out', async () => {
  binance.reset();
  const clock = { now: 1_700_000_000_000 };
  const venue = venueBesideSilentStream(binance, clock);
  await venue.reconcile();
  const book = binance.fake.venue.book(instrumentById('BTCUSDT')!);
  const placed = await venue.submit({
    clientOrderId: 'stream-trust-1',
    symbol: 'BTCUSDT',
    side: 'BUY',
    type: 'limit',
    qty: 0.01,
    limitPrice: roundToStep(book.bids[0]![0] - 50, 0.1),
    reduceOnly: false,
    postOnly: false,
  } as Parameters<LiveVenue['submit']>[0]);
  // Cancelled on the exchange (by hand, say), and the stream missed the push: no position changes.
  expect(placed.order.status).toBe('open');
  await binance.exchange.cancelOrder('', 'BTC/USDT:USDT', { origClientOrderId: exchangeClientId('stream-trust-1') });
  clock.now += 1_000;
  expect((await venue.onMarket(new Map())).cancelled).toEqual([]);
  clock.now += 30_000;
  const later = await venue.onMarket(new Map());
  expect(later.cancelled.map((o) => o.clientOrderId)).toEqual(['stream-trust-1']);
});

/**
 * The live venue with the exchange's user-data stream (issue 32, item 8), on a real ccxt pro
 * binanceusdm against the fake exchange's listen key and WebSocket (Binance's ORDER_TRADE_UPDATE
 * shapes, parsed by ccxt unmodified): a resting order's fill comes from the stream, with no
 * fetchOrder/fetchMyTrades; a dropped stream or an expired listen key falls back to polling at once,
 * the gap is covered by one poll, and every fill is reported exactly once (its trade id the key).
 */
import ccxt from 'ccxt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import type { RequestGate } from '../../../src/adapters/live-venue/request-gate.js';
import { UserStream } from '../../../src/adapters/live-venue/user-stream.js';
import type { OrderRequest } from '../../../src/domain/orders.js';
import { ccxtClient } from '../../support/fake-exchange/ccxt-client.js';
import { round } from '../../support/fake-exchange/decimals.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';
import { startFakeExchange } from '../../support/fake-exchange/server.js';
import type { FakeExchange } from '../../support/fake-exchange/server.js';
import type { Exchange } from 'ccxt';

const btc = instrumentById('BTCUSDT')!;
const SYMBOLS = symbolMap([['BTCUSDT', 'BTC/USDT:USDT']]);
const NO_MARKET = new Map();

let fake: FakeExchange;
let exchange: Exchange;
let gate: RequestGate;
let stream: UserStream;
let venue: LiveVenue;
let seq = 0;

beforeAll(async () => {
  fake = await startFakeExchange({ deposit: 100_000 });
  exchange = ccxtClient(fake.url, { pro: true });
  await exchange.loadMarkets();
  gate = gateRequests(exchange, { monotonic: () => performance.now(), now: () => Date.now() });
});

beforeEach(async () => {
  fake.reset();
  stream = new UserStream({
    exchange,
    monotonic: () => performance.now(),
    // The reconnect backoff's wait: a turn of the event loop, so a test sees the reconnect at once.
    sleep: () => new Promise((resolve) => setImmediate(resolve)),
  });
  venue = new LiveVenue({
    exchange,
    errors: ccxt,
    gate,
    symbols: SYMBOLS,
    now: () => Date.now(),
    monotonic: () => performance.now(),
    sleep: () => Promise.resolve(),
    userStream: stream,
  });
  stream.start();
  await vi.waitFor(() => expect(stream.upSince()).not.toBeNull(), { timeout: 5_000 });
});

afterEach(async () => {
  await stream.stop();
  fake.userStream.drop();
});

afterAll(async () => {
  await exchange.close();
  await fake.stop();
});

function restingBuy(): { order: OrderRequest; price: number } {
  const price = fake.venue.book(btc).bids[2]![0];
  const order: OrderRequest = {
    clientOrderId: `us-${++seq}`,
    symbol: 'BTCUSDT',
    side: 'BUY',
    qty: 0.01,
    type: 'limit',
    limitPrice: price,
    reduceOnly: false,
  };
  return { order, price };
}

/** The price moves through the order: the fake's engine fills it (and pushes it, if connected). */
function fillAt(price: number): void {
  fake.venue.setPrice('BTCUSDT', round(price - 2 * Number(btc.tickSize), 2));
  fake.venue.settle();
}

const polls = (from: number) =>
  fake.calls.slice(from).filter((c) => c.method === 'GET' && /^\/fapi\/v1\/(order|userTrades)\?/.test(c.url)).length;

describe('the live venue on the user-data stream', () => {
  it('a resting order filled on the exchange is reported once, from the stream, with no fetchOrder or fetchMyTrades', async () => {
    const { order, price } = restingBuy();
    expect((await venue.submit(order, NO_MARKET)).order.status).toBe('open');
    fillAt(price);
    await vi.waitFor(() => expect(stream.pending()).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    const before = fake.calls.length;
    const update = await venue.onMarket(NO_MARKET);
    expect(update.fills).toMatchObject([{ clientOrderId: order.clientOrderId, qty: 0.01, price, liquidity: 'maker' }]);
    expect(polls(before)).toBe(0);
    expect((await venue.onMarket(NO_MARKET)).fills).toEqual([]);
  });

  it('a stream that dropped reconnects; the gap is covered by one poll, which finds the fill, once', async () => {
    const { order, price } = restingBuy();
    await venue.submit(order, NO_MARKET);
    const upBefore = stream.upSince()!;
    fake.userStream.drop();
    fillAt(price); // while nothing listens: pushed to no one
    // Reconnected (with backoff): up again, since after the order was last known.
    await vi.waitFor(() => expect(stream.upSince()).toBeGreaterThan(upBefore), { timeout: 5_000 });
    expect(fake.userStream.connections).toBe(2);
    const before = fake.calls.length;
    const update = await venue.onMarket(NO_MARKET);
    expect(update.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([[order.clientOrderId, 0.01]]);
    expect(polls(before)).toBeGreaterThan(0);
    expect((await venue.onMarket(NO_MARKET)).fills).toEqual([]);
  });

  it('a listen key that expired is renewed; the fill in the gap is polled once, the next comes from the stream', async () => {
    const first = restingBuy();
    await venue.submit(first.order, NO_MARKET);
    fake.userStream.expireKey();
    fillAt(first.price); // in the gap: the key is gone, nobody hears it
    await vi.waitFor(() => expect(fake.userStream.connections).toBe(2), { timeout: 5_000 });
    await vi.waitFor(() => expect(stream.upSince()).not.toBeNull(), { timeout: 5_000 });
    expect(fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/listenKey'))).toHaveLength(2);
    const gap = await venue.onMarket(NO_MARKET);
    expect(gap.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([[first.order.clientOrderId, 0.01]]);
    // A new order after the renewal: its fill comes from the stream, no poll.
    fake.venue.setPrice('BTCUSDT', null);
    const second = restingBuy();
    await venue.submit(second.order, NO_MARKET);
    fillAt(second.price);
    await vi.waitFor(() => expect(stream.pending()).toBeGreaterThanOrEqual(2), { timeout: 5_000 });
    const before = fake.calls.length;
    const update = await venue.onMarket(NO_MARKET);
    expect(update.fills.map((f) => [f.clientOrderId, f.qty])).toEqual([[second.order.clientOrderId, 0.01]]);
    expect(polls(before)).toBe(0);
    expect((await venue.onMarket(NO_MARKET)).fills).toEqual([]);
  });
});

/**
 * A user-data stream update older than what the venue already knows (a push delayed past the
 * venue's own REST cancel, or ccxt pro handing back an order's earlier state) must not bring an
 * ended order back to life: the order is reported cancelled once, by the cancel, and neither the
 * stale NEW nor a repeated CANCELED reports it again (a second `cancelled` would be a second
 * order_cancelled line and a second release of its reservation). Real ccxt binanceusdm on the fake
 * for every REST call; the stream's pushes are the exchange's own answers for the order, replayed
 * late in the order a delayed socket would deliver them.
 */
import ccxt from 'ccxt';
import type { Order } from 'ccxt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import type { UserStream } from '../../../src/adapters/live-venue/user-stream.js';
import type { OrderRequest } from '../../../src/domain/orders.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';

const BTC = 'BTC/USDT:USDT';
const NO_MARKET = new Map();
let t: TradingFake;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000 });
  await t.exchange.loadMarkets();
});

afterAll(async () => {
  await t.close();
});

/** The stream as the venue reads it: what was pushed since the last take, and whether it is up. */
function scriptedStream() {
  let orders: Order[] = [];
  return {
    push: (...more: Order[]) => void orders.push(...more),
    stream: {
      upSince: () => null, // down: every resting order is polled, as after a drop
      pending: () => orders.length,
      take: () => {
        const taken = { orders, trades: [] };
        orders = [];
        return taken;
      },
    } as unknown as UserStream,
  };
}

describe('stale user-data stream updates', () => {
  it('an order we cancelled is reported cancelled once, whatever the stream pushes after', async () => {
    const { push, stream } = scriptedStream();
    const venue = new LiveVenue({
      exchange: t.exchange,
      errors: ccxt,
      gate: gateRequests(t.exchange, { monotonic: () => performance.now(), now: () => Date.now() }),
      symbols: symbolMap([['BTCUSDT', BTC]]),
      now: () => Date.now(),
      monotonic: () => performance.now(),
      sleep: () => Promise.resolve(),
      userStream: stream,
    });
    const order: OrderRequest = {
      clientOrderId: 'stale-1',
      symbol: 'BTCUSDT',
      side: 'BUY',
      qty: 0.01,
      type: 'limit',
      limitPrice: t.fake.venue.book(instrumentById('BTCUSDT')!).bids[2]![0],
      reduceOnly: false,
    };
    expect((await venue.submit(order, NO_MARKET)).order.status).toBe('open');
    // The exchange's own view of the order while it rested, and after the cancel.
    const resting = (await t.exchange.fetchOpenOrders(BTC)).find((o) => o.clientOrderId === 'stale-1')!;
    expect(resting.status).toBe('open');
    const cancelled = await venue.cancelAll(['BTCUSDT']);
    expect(cancelled.map((o) => [o.clientOrderId, o.status])).toEqual([['stale-1', 'cancelled']]);
    const ended = await t.exchange.fetchOrder('', BTC, { clientOrderId: 'stale-1' });
    expect(ended.status).toBe('canceled');

    // The placement's NEW arrives late, alone: the order stays ended (a poll finds it cancelled, as known).
    push(resting);
    expect((await venue.onMarket(NO_MARKET)).cancelled).toEqual([]);
    // Then the cancel's own push.
    push(ended);
    expect((await venue.onMarket(NO_MARKET)).cancelled).toEqual([]);
    // Both in one read, the older first.
    push(resting, ended);
    expect((await venue.onMarket(NO_MARKET)).cancelled).toEqual([]);
  });
});

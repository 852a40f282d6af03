/**
 * The faults the fake exchange injects, each as a real ccxt `binanceusdm` meets it — the error
 * class a live adapter will have to judge, and what the exchange did meanwhile: an order accepted
 * whose answer never comes (found afterwards by client order id), 429 and 418 with Retry-After,
 * 5xx before and after execution, lookups answering "Order does not exist." for an order that
 * exists, partial fills, an order placed outside the system, a position changed behind its back,
 * silence, and refused credentials.
 */
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { round } from '../../support/fake-exchange/decimals.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';

const BTC = 'BTC/USDT:USDT';
const btc = instrumentById('BTCUSDT')!;
/** ccxt's timeout where an answer is lost: what that costs a test in real time. */
const TIMEOUT_MS = 150;

let t: TradingFake;
let ex: Exchange;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000 });
  ex = t.exchange;
  await ex.loadMarkets();
});

beforeEach(() => t.reset());

afterAll(async () => {
  await t.close();
});

const byClientId = (clientOrderId: string) => ex.fetchOrder('', BTC, { clientOrderId });
const rejects = (run: Promise<unknown>, name: string, text = '') =>
  expect(run).rejects.toMatchObject({ name, message: expect.stringContaining(text) });

describe('faults of the fake exchange, as ccxt meets them', () => {
  it('accepts an order and never answers: ccxt times out, the order is there by its client order id', async () => {
    t.fake.faults.neverAnswer('POST', '/fapi/v1/order');
    ex.timeout = TIMEOUT_MS;
    await rejects(ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 'lost-1' }), 'RequestTimeout');
    ex.timeout = 2_000;
    expect(await byClientId('lost-1')).toMatchObject({ status: 'closed', filled: 0.01 });
    expect((await ex.fetchPositions([BTC]))[0]!.contracts).toBe(0.01);
  });

  it('answers 429 and 418 with Retry-After: ccxt raises DDoSProtection and keeps the header', async () => {
    t.fake.rateLimit(1, 7);
    await rejects(ex.fetchBalance(), 'DDoSProtection', '429');
    expect(ex.last_response_headers?.['Retry-After']).toBe('7');
    t.fake.faults.ban(1, 120);
    await rejects(ex.fetchBalance(), 'DDoSProtection', '418');
    expect(ex.last_response_headers?.['Retry-After']).toBe('120');
    expect((await ex.fetchBalance()).USDT!.total).toBe(100_000);
  });

  it('fails with 5xx before acting (OperationFailed, nothing placed) or after (RequestTimeout, order placed)', async () => {
    t.fake.faults.serverErrors(2, 503);
    await rejects(
      ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 'e-1' }),
      'OperationFailed',
      '-1001',
    );
    await rejects(ex.fetchOpenOrders(BTC), 'OperationFailed', '-1001');
    await rejects(byClientId('e-1'), 'OrderNotFound', '-2013');

    t.fake.faults.serverErrors(1, 503, true);
    await rejects(
      ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 'e-2' }),
      'RequestTimeout',
      '-1007',
    );
    expect(await byClientId('e-2')).toMatchObject({ status: 'closed', filled: 0.01 });
  });

  it('answers "Order does not exist." to lookups of an order that exists, then finds it', async () => {
    const placed = await ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 'u-1' });
    t.fake.faults.unknownOrders(2);
    await rejects(byClientId('u-1'), 'OrderNotFound', '-2013');
    await rejects(ex.fetchOrder(placed.id!, BTC), 'OrderNotFound', '-2013');
    expect(await byClientId('u-1')).toMatchObject({ id: placed.id, status: 'closed' });
  });

  it('fills part of an order and rests the rest, which fills once the book crosses it again', async () => {
    const price = t.fake.venue.book(btc).asks[0]![0];
    t.fake.venue.partialFills(0.5, 1);
    const placed = await ex.createOrder(BTC, 'limit', 'buy', 0.02, price, { clientOrderId: 'p-1' });
    expect(placed).toMatchObject({ status: 'open', filled: 0.01, remaining: 0.01 });

    // What else crossed went to others: the rest waits for the book to change.
    expect(await byClientId('p-1')).toMatchObject({ status: 'open', filled: 0.01 });
    t.fake.venue.setPrice('BTCUSDT', round(price - 1, 1)); // the market moves through the order
    expect(await byClientId('p-1')).toMatchObject({ status: 'closed', filled: 0.02 });
    const trades = await ex.fetchMyTrades(BTC);
    expect(trades.map((x) => [x.amount, x.takerOrMaker, x.price])).toEqual([
      [0.01, 'taker', price],
      [0.01, 'maker', price],
    ]);
  });

  it('shows an order placed outside the system among the open orders, under a foreign client id', async () => {
    const price = t.fake.venue.book(btc).asks[5]![0];
    const foreign = t.fake.venue.place(
      {
        symbol: 'BTCUSDT',
        side: 'SELL',
        type: 'LIMIT',
        timeInForce: 'GTC',
        qty: 0.01,
        price,
        reduceOnly: false,
        clientOrderId: null,
      },
      true,
    );
    const [open] = await ex.fetchOpenOrders(BTC);
    expect(open).toMatchObject({ id: String(foreign.orderId), side: 'sell', price, status: 'open' });
    expect(open!.clientOrderId).toMatch(/^web_/);
  });

  it("shows a position changed behind the system's back in fetchPositions and the balance", async () => {
    await ex.createOrder(BTC, 'market', 'buy', 0.01);
    t.fake.venue.setPosition('BTCUSDT', -0.03, 60_000);
    const [position] = await ex.fetchPositions([BTC]);
    expect(position).toMatchObject({ side: 'short', contracts: 0.03, entryPrice: 60_000 });
    const mark = t.fake.venue.mark(btc);
    expect(position!.unrealizedPnl).toBeCloseTo((60_000 - mark) * 0.03, 6);
    expect((await ex.fetchMyTrades(BTC)).length).toBe(1); // no trade explains it
  });

  it('goes silent: requests time out, nothing is done, and it answers again once resumed', async () => {
    t.fake.hang();
    ex.timeout = TIMEOUT_MS;
    await rejects(ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 's-1' }), 'RequestTimeout');
    ex.timeout = 2_000;
    t.fake.resume();
    await rejects(byClientId('s-1'), 'OrderNotFound');
    expect(await ex.fetchOpenOrders(BTC)).toEqual([]);
  });

  it('refuses a wrong secret, an unknown key, a malformed key (AuthenticationError) and a stale clock (InvalidNonce)', async () => {
    const credentials = { apiKey: ex.apiKey, secret: ex.secret };
    const refusedWith = async (apiKey: string, secret: string, code: string) => {
      Object.assign(ex, { apiKey, secret });
      await rejects(ex.fetchBalance(), 'AuthenticationError', code);
    };
    await refusedWith(credentials.apiKey, 'not-the-secret', '-1022');
    await refusedWith('someoneElsesKey', credentials.secret, '-2015');
    await refusedWith('not a key', credentials.secret, '-2014');
    Object.assign(ex, credentials);
    ex.options['timeDifference'] += 20_000; // ccxt's clock 20 s behind the exchange's
    await rejects(ex.fetchBalance(), 'InvalidNonce', '-1021');
  });
});

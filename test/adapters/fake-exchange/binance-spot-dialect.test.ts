/**
 * The fake's Binance spot dialect, driven by an unmodified ccxt `binance` (keys set, the Binance spot
 * profile's options): every unified method the live venue needs parses every answer the dialect
 * gives — loadMarkets (spot only, no sapi), fetchTime, fetchOrderBook, fetchOHLCV, fetchBidsAsks,
 * fetchBalance, createOrder (market, limit, post-only as LIMIT_MAKER, with a client id), fetchOrder
 * by client id, fetchOpenOrders, cancelOrder, cancelAllOrders, fetchMyTrades — and the answers agree
 * with the fake's engine read as a spot account. Refusals come as spot's codes and words.
 */
import ccxt from 'ccxt';
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failureKind } from '../../../src/adapters/live-venue/exchange-errors.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { BINANCE_SPOT_DIALECT } from '../../support/fake-exchange/dialects/binance-spot/index.js';
import { candleAt, instrumentById, MINUTE } from '../../support/fake-exchange/market-data.js';

const BTC = 'BTC/USDT';
const btc = instrumentById('BTCUSDT')!;
const DEPOSIT = 100_000;
const SERVED = /^\/api\/v3\/(time|exchangeInfo|depth|klines|ticker\/bookTicker|account|order|openOrders|myTrades)$/;

let t: TradingFake;
let ex: Exchange;

beforeAll(async () => {
  t = await openTradingFake({ deposit: DEPOSIT, dialect: BINANCE_SPOT_DIALECT, fees: { maker: 0.001, taker: 0.001 } });
  ex = t.exchange;
  await ex.loadMarkets();
});

beforeEach(() => t.reset());

afterAll(async () => {
  await t.close();
});

const book = () => t.fake.venue.book(btc);
const paths = () => t.fake.calls.map((c) => new URL(c.url, 'http://x').pathname);
const below = (ticks: number) => Number((book().bids[0]![0] - ticks * Number(btc.tickSize)).toFixed(2));

describe('ccxt binance on the fake exchange (Binance spot dialect)', () => {
  it('loads the spot markets from exchangeInfo alone, with the fake precision and limits', async () => {
    const fresh = await openTradingFake({ dialect: BINANCE_SPOT_DIALECT });
    try {
      const markets = await fresh.exchange.loadMarkets();
      const m = markets[BTC]!;
      expect(m).toMatchObject({ id: 'BTCUSDT', type: 'spot', spot: true, base: 'BTC', quote: 'USDT', active: true });
      expect(m.precision).toMatchObject({ price: Number(btc.tickSize), amount: Number(btc.stepSize) });
      expect(m.limits.cost?.min).toBe(Number(btc.minNotional));
      expect(Object.values(markets).every((x) => x?.spot)).toBe(true);
      const asked = fresh.fake.calls.map((c) => new URL(c.url, 'http://x').pathname);
      // The clock (adjustForTimeDifference) and the markets: nothing from /sapi, which the spot testnet lacks.
      expect(asked.sort()).toEqual(['/api/v3/exchangeInfo', '/api/v3/time']);
    } finally {
      await fresh.close();
    }
  });

  it('reads the time, the book, the best bid and ask and closed candles as the engine has them', async () => {
    const now = t.fake.venue.now();
    expect(Math.abs((await ex.fetchTime())! - now)).toBeLessThan(2_000);
    const ob = await ex.fetchOrderBook(BTC, 20);
    expect(ob.bids[0]).toEqual(book().bids[0]);
    expect(ob.asks[0]).toEqual(book().asks[0]);
    const top = await ex.fetchBidsAsks([BTC, 'ETH/USDT']);
    expect([top[BTC]!.bid, top[BTC]!.ask]).toEqual([book().bids[0]![0], book().asks[0]![0]]);
    expect(top['ETH/USDT']!.bid).toBeGreaterThan(0);
    const since = Math.floor(now / MINUTE) * MINUTE - 5 * MINUTE;
    const bars = await ex.fetchOHLCV(BTC, '1m', since, 5);
    const c = candleAt(t.fake.seed, btc, since);
    expect(bars[0]).toEqual([since, c.open, c.high, c.low, c.close, c.volume]);
  });

  it('a market buy under our client id: filled, its fills and trades, the balance moved to BTC', async () => {
    const placed = await ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 'spot-1' });
    expect(placed).toMatchObject({ clientOrderId: 'spot-1', status: 'closed', filled: 0.01, side: 'buy' });
    expect(placed.trades.length).toBeGreaterThan(0);
    const trades = await ex.fetchMyTrades(BTC, undefined, undefined, { orderId: placed.id });
    expect(trades.reduce((s, x) => s + (x.amount ?? 0), 0)).toBeCloseTo(0.01, 9);
    expect(trades[0]).toMatchObject({ side: 'buy', takerOrMaker: 'taker', fee: { currency: 'USDT' } });
    const cost = trades.reduce((s, x) => s + (x.cost ?? 0), 0);
    const fees = trades.reduce((s, x) => s + x.fee!.cost!, 0);
    expect(fees).toBeCloseTo(cost * 0.001, 6);
    const balance = await ex.fetchBalance();
    expect(balance['BTC']).toMatchObject({ total: 0.01, free: 0.01, used: 0 });
    expect(balance['USDT']!.total).toBeCloseTo(DEPOSIT - cost - fees, 6);
    expect(await ex.fetchOrder('', BTC, { clientOrderId: 'spot-1' })).toMatchObject({
      id: placed.id,
      status: 'closed',
    });
    expect(
      paths().every((p) => SERVED.test(p)),
      paths().join(' '),
    ).toBe(true);
  });

  it('a resting limit and a post-only (LIMIT_MAKER) rest, lock their quote, and are cancelled one and all', async () => {
    const limit = await ex.createOrder(BTC, 'limit', 'buy', 0.01, below(10), { clientOrderId: 'rest-1' });
    const maker = await ex.createOrder(BTC, 'limit', 'buy', 0.01, below(20), {
      clientOrderId: 'rest-2',
      postOnly: true,
    });
    expect([limit.status, maker.status]).toEqual(['open', 'open']);
    // Sent as LIMIT_MAKER (the engine's post-only limit), and read back as post-only.
    expect(t.fake.venue.find('BTCUSDT', { clientOrderId: 'rest-2' })?.timeInForce).toBe('GTX');
    expect([limit.postOnly, maker.postOnly]).toEqual([false, true]);
    expect((await ex.fetchBalance())['USDT']!.used).toBeCloseTo(0.01 * (below(10) + below(20)), 6);
    expect((await ex.fetchOpenOrders(BTC)).map((o) => o.clientOrderId).sort()).toEqual(['rest-1', 'rest-2']);
    expect(await ex.cancelOrder(limit.id!, BTC)).toMatchObject({ id: limit.id, status: 'canceled' });
    const all = await ex.cancelAllOrders(BTC);
    expect(all.map((o) => o.clientOrderId)).toEqual(['rest-2']);
    expect(await ex.fetchOpenOrders(BTC)).toEqual([]);
    // With nothing open Binance spot answers -2011, which ccxt reports as OrderNotFound.
    await expect(ex.cancelAllOrders(BTC)).rejects.toBeInstanceOf(ccxt.OrderNotFound);
  });

  it("refuses in spot's words: no balance, a LIMIT_MAKER that would take, below NOTIONAL, a duplicate open id", async () => {
    await expect(ex.createOrder(BTC, 'market', 'sell', 0.01)).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
    await expect(ex.createOrder(BTC, 'limit', 'buy', 100, below(10))).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
    const crossing = Number((book().asks[0]![0] + 5 * Number(btc.tickSize)).toFixed(2));
    await expect(ex.createOrder(BTC, 'limit', 'buy', 0.01, crossing, { postOnly: true })).rejects.toBeInstanceOf(
      ccxt.OrderImmediatelyFillable,
    );
    await expect(ex.createOrder(BTC, 'market', 'buy', 0.001)).rejects.toThrow(/-1013.*NOTIONAL/);
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, below(10), { clientOrderId: 'twice' });
    const dup = await ex
      .createOrder(BTC, 'limit', 'buy', 0.01, below(11), { clientOrderId: 'twice' })
      .catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(ccxt.InvalidOrder);
    expect(failureKind(dup, ccxt)).toBe('duplicate');
    await expect(ex.fetchOrder('', BTC, { clientOrderId: 'never' })).rejects.toBeInstanceOf(ccxt.OrderNotFound);
    expect(t.fake.venue.open('BTCUSDT')).toHaveLength(1);
  });
});

/**
 * The fake's Bybit v5 dialect, driven by an unmodified ccxt `bybit` (keys set, the Bybit profile's
 * options): every unified method the live venue needs parses every answer the dialect gives —
 * loadMarkets, fetchTime, fetchOrderBook, fetchOHLCV, fetchBalance, fetchPositions, createOrder
 * (limit, post-only, market, reduce-only, with an orderLinkId), fetchOrder and fetchOpenOrders,
 * cancelOrder, cancelAllOrders, fetchMyTrades — and the answers agree with the fake's engine.
 * Refusals come as Bybit's codes, which ccxt files under its classes.
 */
import ccxt from 'ccxt';
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { BYBIT } from '../../../src/adapters/exchanges/bybit.js';
import { LEVERAGE } from '../../support/fake-exchange/ledger.js';
import { BYBIT_DIALECT } from '../../support/fake-exchange/dialects/bybit/index.js';
import { candleAt, instrumentById, MINUTE } from '../../support/fake-exchange/market-data.js';
import { FAKE_CREDENTIALS } from '../../support/fake-exchange/server.js';

const BTC = 'BTC/USDT:USDT';
const btc = instrumentById('BTCUSDT')!;
const DEPOSIT = 1_000_000;

/** The paths the dialect serves; a request to any other is a path ccxt needs that it lacks. */
const SERVED =
  /^\/v5\/(market\/(time|instruments-info|orderbook|kline|tickers)|asset\/coin\/query-info|account\/wallet-balance|position\/(list|set-leverage|switch-mode)|order\/(create|realtime|history|cancel|cancel-all)|execution\/list)$/;

let t: TradingFake;
let ex: Exchange;

beforeAll(async () => {
  t = await openTradingFake({ deposit: DEPOSIT, dialect: BYBIT_DIALECT });
  ex = t.exchange;
  await ex.loadMarkets();
});

beforeEach(() => t.reset());

afterAll(async () => {
  await t.close();
});

const book = () => t.fake.venue.book(btc);
const paths = () => t.fake.calls.map((c) => new URL(c.url, 'http://x').pathname);
const openOrder = (id: string | undefined) => ex.fetchOrder(id!, BTC, { acknowledged: true });

describe('ccxt bybit on the fake exchange (Bybit v5 dialect)', () => {
  it('loads the linear markets from instruments-info, with the fake precision and limits', async () => {
    const fresh = await openTradingFake({ dialect: BYBIT_DIALECT });
    try {
      const markets = await fresh.exchange.loadMarkets();
      const m = markets[BTC]!;
      expect(m).toMatchObject({ id: 'BTCUSDT', type: 'swap', linear: true, settle: 'USDT', active: true });
      expect(m.precision).toMatchObject({ price: Number(btc.tickSize), amount: Number(btc.stepSize) });
      expect(m.limits.cost?.min).toBe(Number(btc.minNotional));
      const asked = fresh.fake.calls.map((c) => new URL(c.url, 'http://x'));
      expect(
        asked.map((u) => u.pathname).every((p) => SERVED.test(p)),
        asked.map((u) => u.pathname).join(' '),
      ).toBe(true);
      expect(
        asked.some((u) => u.pathname === '/v5/market/instruments-info' && u.searchParams.get('category') === 'linear'),
      ).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('reads the time, the book and closed candles as the engine has them', async () => {
    const now = t.fake.venue.now();
    expect(Math.abs((await ex.fetchTime())! - now)).toBeLessThan(2_000);
    const ob = await ex.fetchOrderBook(BTC, 50);
    expect(ob.bids[0]).toEqual(book().bids[0]);
    expect(ob.asks[0]).toEqual(book().asks[0]);
    const since = Math.floor(now / MINUTE) * MINUTE - 5 * MINUTE;
    // Bybit counts back from `end` (now when not sent): the range is closed at both ends.
    const bars = await ex.fetchOHLCV(BTC, '1m', since, 5, { end: since + 4 * MINUTE });
    expect(bars.map((b) => b[0])).toEqual([0, 1, 2, 3, 4].map((i) => since + i * MINUTE));
    const c = candleAt(t.fake.seed, btc, since);
    expect(bars[0]).toEqual([since, c.open, c.high, c.low, c.close, c.volume]);
  });

  it('rests a limit order under our orderLinkId, finds it open, cancels it and finds it cancelled', async () => {
    const price = book().bids[2]![0];
    const placed = await ex.createOrder(BTC, 'limit', 'buy', 0.01, price, {
      clientOrderId: 'tcs-a_1',
      timeInForce: 'GTC',
    });
    const open = await ex.fetchOpenOrders(BTC);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      id: placed.id,
      clientOrderId: 'tcs-a_1',
      status: 'open',
      price,
      amount: 0.01,
      filled: 0,
    });
    expect((await openOrder(placed.id)).status).toBe('open');
    await ex.cancelOrder(placed.id!, BTC);
    expect(await ex.fetchOpenOrders(BTC)).toHaveLength(0);
    expect(await openOrder(placed.id)).toMatchObject({ status: 'canceled', clientOrderId: 'tcs-a_1' });
    expect(paths()).toContain('/v5/order/create');
  });

  it('takes with a market order: trades, the position and the wallet agree with the engine', async () => {
    const placed = await ex.createOrder(BTC, 'market', 'buy', 0.02, undefined, { clientOrderId: 'tcs-m1' });
    const order = await openOrder(placed.id);
    expect(order).toMatchObject({ status: 'closed', filled: 0.02, clientOrderId: 'tcs-m1' });
    const trades = await ex.fetchMyTrades(BTC);
    const engine = t.fake.venue.trades('BTCUSDT');
    const byId = <T extends { id?: string | undefined }>(rows: T[]) =>
      [...rows].sort((x, y) => Number(x.id) - Number(y.id));
    expect(byId(trades).map((x) => [x.order, x.price, x.amount])).toEqual(
      engine.map((x) => [String(x.orderId), x.price, x.qty]),
    );
    expect(engine.length).toBeGreaterThan(0);
    expect(trades.every((x) => x.fee?.currency === 'USDT' && x.fee.cost! > 0)).toBe(true);
    const [position] = await ex.fetchPositions([BTC]);
    expect(position).toMatchObject({ symbol: BTC, side: 'long', contracts: 0.02 });
    const all = await ex.fetchPositions();
    expect(all.map((p) => p.symbol)).toEqual([BTC]);
    const balance = await ex.fetchBalance();
    const account = t.fake.venue.account();
    expect(balance['USDT']?.total).toBeCloseTo(account.wallet, 6);
    expect(balance['USDT']?.free).toBeLessThan(account.wallet);
  });

  it('a reduce-only order stops at flat; a post-only order that would take is accepted and cancelled at once', async () => {
    await ex.createOrder(BTC, 'market', 'buy', 0.01);
    await ex.createOrder(BTC, 'market', 'sell', 0.05, undefined, { reduceOnly: true });
    expect(t.fake.venue.ledger.position('BTCUSDT').qty).toBe(0);
    const ask = book().asks[0]![0];
    const po = await ex.createOrder(BTC, 'limit', 'buy', 0.01, ask, { postOnly: true });
    const seen = await openOrder(po.id);
    expect(seen).toMatchObject({ status: 'canceled', filled: 0, postOnly: true });
    expect((seen.info as { rejectReason?: string }).rejectReason).toBe('EC_PostOnlyWillTakeLiquidity');
  });

  it('cancels all orders of a symbol', async () => {
    const bid = book().bids[3]![0];
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, bid);
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, bid);
    await ex.cancelAllOrders(BTC);
    expect(await ex.fetchOpenOrders(BTC)).toHaveLength(0);
    expect(t.fake.venue.open()).toHaveLength(0);
  });

  it("refuses with Bybit's codes, which ccxt files by class: a reused orderLinkId, too little margin, a bad signature", async () => {
    const bid = book().bids[3]![0];
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, bid, { clientOrderId: 'dup-1' });
    await ex.cancelOrder('', BTC, { clientOrderId: 'dup-1' }).catch(() => undefined);
    // Bybit refuses an orderLinkId used before, even by an order that is done.
    await expect(ex.createOrder(BTC, 'limit', 'buy', 0.01, bid, { clientOrderId: 'dup-1' })).rejects.toThrow(/110072/);
    await expect(ex.createOrder(BTC, 'limit', 'buy', 999, bid)).rejects.toBeInstanceOf(ccxt.InsufficientFunds);
    const wrong = await openTradingFake({
      dialect: BYBIT_DIALECT,
      credentials: { ...FAKE_CREDENTIALS, secret: 'other' },
    });
    try {
      await expect(wrong.exchange.fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);
    } finally {
      await wrong.close();
    }
  });

  it("the Bybit profile's account and income calls read the fake: time, one-way mode, margin mode, leverage, fees", async () => {
    expect(Math.abs((await BYBIT.account.serverTime(ex)) - t.fake.venue.now())).toBeLessThan(2_000);
    expect(await BYBIT.account.hedgeMode(ex)).toBe(false);
    expect(await BYBIT.account.multiAssets(ex)).toBe(false);
    expect(await BYBIT.account.symbolSettings(ex, 'BTCUSDT')).toEqual({ leverage: LEVERAGE, marginType: 'cross' });
    await ex.setLeverage(10, BTC);
    expect(await BYBIT.account.symbolSettings(ex, 'BTCUSDT')).toEqual({ leverage: 10, marginType: 'cross' });
    await ex.createOrder(BTC, 'market', 'buy', 0.01);
    const fees = t.fake.venue.incomeHistory().filter((r) => r.incomeType === 'COMMISSION');
    const lines = await BYBIT.income!(ex)(0, BYBIT.incomePageSize);
    expect(lines.map((l) => [l.incomeType, Number(l.income)])).toEqual(fees.map((r) => ['COMMISSION', r.income]));
    expect(fees.every((r) => r.income < 0)).toBe(true);
  });
});

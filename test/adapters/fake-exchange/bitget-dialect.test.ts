/**
 * The fake's Bitget V2 dialect, driven by an unmodified ccxt `bitget` (key, secret and passphrase
 * set, the Bitget profile's options): every unified method the live venue needs parses every answer
 * the dialect gives — loadMarkets, fetchTime, fetchOrderBook, fetchOHLCV, fetchFundingRate,
 * fetchBalance, fetchPositions, createOrder (limit, post-only, market, reduce-only, under a
 * clientOid, and a position stop-loss), fetchOrder and fetchOpenOrders (plain and plan),
 * cancelOrder, cancelAllOrders, fetchMyTrades — and the answers agree with the fake's engine.
 * Refusals come as Bitget's codes, which ccxt files under its classes; a wrong passphrase is
 * refused like a wrong signature. Sizes are in the base coin (ccxt's contractSize 1 on Bitget).
 */
import ccxt from 'ccxt';
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BITGET } from '../../../src/adapters/exchanges/bitget.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { BITGET_DIALECT } from '../../support/fake-exchange/dialects/bitget/index.js';
import { LEVERAGE } from '../../support/fake-exchange/ledger.js';
import { candleAt, fundingAt, instrumentById, MINUTE } from '../../support/fake-exchange/market-data.js';
import { FAKE_CREDENTIALS } from '../../support/fake-exchange/server.js';

/** Bitget has exchange-side stops (its profile's, never null there). */
const STOPS = BITGET.exchangeStops!;

const BTC = 'BTC/USDT:USDT';
const btc = instrumentById('BTCUSDT')!;
const DEPOSIT = 1_000_000;

/** The paths the dialect serves; a request to any other is a path ccxt needs that it lacks. */
const SERVED =
  /^\/api\/v2\/(public\/time|spot\/public\/(coins|symbols)|margin\/currencies|mix\/market\/(contracts|merge-depth|candles|history-candles|tickers?|current-fund-rate|history-fund-rate)|mix\/account\/(accounts|account|set-leverage|set-position-mode|bill)|mix\/position\/all-position|mix\/order\/(place-order|detail|orders-pending|orders-history|cancel-order|batch-cancel-orders|fills|place-tpsl-order|orders-plan-pending|orders-plan-history|cancel-plan-order))$/;

let t: TradingFake;
let ex: Exchange;

beforeAll(async () => {
  t = await openTradingFake({ deposit: DEPOSIT, dialect: BITGET_DIALECT });
  ex = t.exchange;
  await ex.loadMarkets();
});

beforeEach(() => t.reset());

afterAll(async () => {
  await t.close();
});

const book = () => t.fake.venue.book(btc);
const paths = () => t.fake.calls.map((c) => new URL(c.url, 'http://x').pathname);

describe('ccxt bitget on the fake exchange (Bitget V2 dialect)', () => {
  it('loads the USDT-M perpetuals from mix/market/contracts, sizes in the base (contractSize 1), with only served paths and no unified-account probe', async () => {
    const fresh = await openTradingFake({ dialect: BITGET_DIALECT });
    try {
      const markets = await fresh.exchange.loadMarkets();
      const m = markets[BTC]!;
      expect(m).toMatchObject({ id: 'BTCUSDT', type: 'swap', linear: true, settle: 'USDT', active: true });
      expect(m.contractSize).toBe(1);
      expect(m.precision).toMatchObject({ price: Number(btc.tickSize), amount: Number(btc.stepSize) });
      expect(m.limits.amount?.min).toBe(Number(btc.stepSize));
      const asked = fresh.fake.calls.map((c) => new URL(c.url, 'http://x'));
      expect(
        asked.every((u) => SERVED.test(u.pathname)),
        asked.map((u) => u.pathname).join(' '),
      ).toBe(true);
      expect(
        asked.some(
          (u) => u.pathname === '/api/v2/mix/market/contracts' && u.searchParams.get('productType') === 'USDT-FUTURES',
        ),
      ).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('reads the time, the book, closed candles and the funding rate as the engine has them', async () => {
    const now = t.fake.venue.now();
    expect(Math.abs((await ex.fetchTime())! - now)).toBeLessThan(2_000);
    const ob = await ex.fetchOrderBook(BTC, 50);
    expect(ob.bids.slice(0, 3)).toEqual(book().bids.slice(0, 3));
    expect(ob.asks.slice(0, 3)).toEqual(book().asks.slice(0, 3));
    const since = Math.floor(now / MINUTE) * MINUTE - 5 * MINUTE;
    const bars = await ex.fetchOHLCV(BTC, '1m', since, 5);
    expect(bars.map((b) => b[0])).toEqual([0, 1, 2, 3, 4].map((i) => since + i * MINUTE));
    const c = candleAt(t.fake.seed, btc, since);
    expect(bars[0]).toEqual([since, c.open, c.high, c.low, c.close, c.volume]);
    const funding = await ex.fetchFundingRate(BTC);
    expect(funding.fundingRate).toBe(fundingAt(t.fake.seed, btc, funding.fundingTimestamp!));
    expect(funding.fundingTimestamp! % (8 * 3_600_000)).toBe(0);
  });

  it('rests a limit order under our clientOid, finds it open and by clientOid, cancels it and finds it cancelled', async () => {
    const price = book().bids[2]![0];
    const placed = await ex.createOrder(BTC, 'limit', 'buy', 0.01, price, { clientOrderId: 'tcs-A1' });
    const open = await ex.fetchOpenOrders(BTC);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      id: placed.id,
      clientOrderId: 'tcs-A1',
      status: 'open',
      price,
      amount: 0.01,
      filled: 0,
    });
    expect(await ex.fetchOrder('', BTC, BITGET.lookupParams('tcs-A1'))).toMatchObject({
      id: placed.id,
      status: 'open',
    });
    expect(t.fake.venue.open('BTCUSDT').map((o) => o.origQty)).toEqual([0.01]);
    await ex.cancelOrder(placed.id!, BTC);
    expect(await ex.fetchOpenOrders(BTC)).toHaveLength(0);
    expect(await ex.fetchOrder(placed.id!, BTC)).toMatchObject({ status: 'canceled', clientOrderId: 'tcs-A1' });
    expect(paths()).toContain('/api/v2/mix/order/place-order');
  });

  it('takes with a market order: its fills, the position and the balance agree with the engine', async () => {
    const placed = await ex.createOrder(BTC, 'market', 'buy', 0.02, undefined, { clientOrderId: 'tcs-M1' });
    expect(await ex.fetchOrder(placed.id!, BTC)).toMatchObject({
      status: 'closed',
      filled: 0.02,
      clientOrderId: 'tcs-M1',
    });
    const trades = await ex.fetchMyTrades(BTC, undefined, undefined, BITGET.tradesOfOrderParams(placed.id!));
    const engine = t.fake.venue.trades('BTCUSDT');
    expect(engine.length).toBeGreaterThan(0);
    const byId = <T extends { id?: string | undefined }>(rows: T[]) =>
      [...rows].sort((x, y) => Number(x.id) - Number(y.id));
    expect(byId(trades).map((x) => [x.order, x.price, x.amount])).toEqual(
      engine.map((x) => [String(x.orderId), x.price, x.qty]),
    );
    expect(trades.every((x) => x.fee?.currency === 'USDT' && x.fee.cost! > 0)).toBe(true);
    const [position] = await ex.fetchPositions([BTC]);
    expect(position).toMatchObject({ symbol: BTC, side: 'long', contracts: 0.02, contractSize: 1 });
    const balance = await ex.fetchBalance();
    const account = t.fake.venue.account();
    expect(balance['USDT']?.total).toBeCloseTo(account.wallet + account.unrealized, 6);
    expect(BITGET.navOf(balance)).toBeCloseTo(account.wallet + account.unrealized, 6);
    expect(balance['USDT']?.free).toBeLessThan(account.wallet);
  });

  it('a reduce-only order stops at flat; a post-only order that would take is accepted and cancelled at once', async () => {
    await ex.createOrder(BTC, 'market', 'buy', 0.01);
    await ex.createOrder(BTC, 'market', 'sell', 0.05, undefined, { reduceOnly: true });
    expect(t.fake.venue.ledger.position('BTCUSDT').qty).toBe(0);
    const ask = book().asks[0]![0];
    const po = await ex.createOrder(BTC, 'limit', 'buy', 0.01, ask, { postOnly: true });
    expect(await ex.fetchOrder(po.id!, BTC)).toMatchObject({ status: 'canceled', filled: 0, postOnly: true });
  });

  it('cancels every open order of a symbol in one call (batch-cancel-orders without a list)', async () => {
    const bid = book().bids[3]![0];
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, bid);
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, bid);
    await ex.cancelAllOrders(BTC);
    expect(await ex.fetchOpenOrders(BTC)).toHaveLength(0);
    expect(paths()).toContain('/api/v2/mix/order/batch-cancel-orders');
  });

  it('places, finds and cancels a position stop-loss on the mark (pos_loss), and it closes the position when the mark crosses', async () => {
    await ex.createOrder(BTC, 'market', 'buy', 0.01);
    const trigger = String(Math.round(t.fake.venue.mark(btc) * 0.9 * 10) / 10);
    const stop = await ex.createOrder(
      BTC,
      'market',
      'sell',
      undefined as unknown as number,
      undefined,
      STOPS.params(trigger, 'tcs-Stop1'),
    );
    const open = await ex.fetchOpenOrders(BTC, undefined, undefined, { ...STOPS.query });
    expect(open.map((o) => [o.id, o.clientOrderId, o.side, o.triggerPrice, STOPS.resting(o)])).toEqual([
      [stop.id, 'tcs-Stop1', 'sell', Number(trigger), true],
    ]);
    t.fake.venue.setPrice('BTCUSDT', Number(trigger) * 0.98);
    t.fake.venue.settle();
    expect(await ex.fetchOpenOrders(BTC, undefined, undefined, { ...STOPS.query })).toHaveLength(0);
    // The profile's read: not pending any more, so from the plan history.
    const fired = await STOPS.read!(ex, stop.id!, BTC);
    expect(paths()).toContain('/api/v2/mix/order/orders-plan-history');
    expect(STOPS.resting(fired)).toBe(false);
    const became = STOPS.triggeredOrderId(fired);
    expect(became).toBeDefined();
    expect(t.fake.venue.ledger.position('BTCUSDT').qty).toBe(0);
    const fills = await ex.fetchMyTrades(BTC, undefined, undefined, BITGET.tradesOfOrderParams(became!));
    expect(fills.reduce((s, f) => s + f.amount!, 0)).toBeCloseTo(0.01, 9);
    t.fake.venue.setPrice('BTCUSDT', null);
    await ex.createOrder(BTC, 'market', 'buy', 0.01);
    const again = await ex.createOrder(
      BTC,
      'market',
      'sell',
      undefined as unknown as number,
      undefined,
      STOPS.params(trigger, 'tcs-Stop2'),
    );
    await ex.cancelOrder(again.id!, BTC, { ...STOPS.query });
    expect(await ex.fetchOpenOrders(BTC, undefined, undefined, { ...STOPS.query })).toHaveLength(0);
    expect(paths()).toContain('/api/v2/mix/order/place-tpsl-order');
  });

  it("refuses with Bitget's codes, which ccxt files by class: a clientOid in use, too little margin, a bad signature or passphrase", async () => {
    const bid = book().bids[3]![0];
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, bid, { clientOrderId: 'dup1' });
    const duplicate = await ex
      .createOrder(BTC, 'limit', 'buy', 0.01, bid, { clientOrderId: 'dup1' })
      .catch((e: unknown) => e);
    expect(BITGET.errorCode(duplicate)).toBe(BITGET.duplicateOrderCode);
    const broke = await ex.createOrder(BTC, 'limit', 'buy', 999, bid).catch((e: unknown) => e);
    expect(broke).toBeInstanceOf(ccxt.InsufficientFunds);
    expect(BITGET.errorCode(broke)).toBe(40762);
    for (const wrong of [{ secret: 'other' }, { passphrase: 'other' }]) {
      const other = await openTradingFake({ dialect: BITGET_DIALECT, credentials: { ...FAKE_CREDENTIALS, ...wrong } });
      try {
        await expect(other.exchange.fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);
      } finally {
        await other.close();
      }
    }
  });

  it("the Bitget profile's account and income calls read the fake: time, one-way mode, single-asset mode, leverage, fees", async () => {
    expect(Math.abs((await BITGET.account.serverTime(ex)) - t.fake.venue.now())).toBeLessThan(2_000);
    expect(await BITGET.account.hedgeMode(ex)).toBe(false);
    expect(await BITGET.account.multiAssets(ex)).toBe(false);
    expect(await BITGET.account.symbolSettings(ex, 'BTCUSDT')).toEqual({ leverage: LEVERAGE, marginType: 'cross' });
    await ex.setLeverage(10, BTC, { marginMode: 'cross' });
    expect(await BITGET.account.symbolSettings(ex, 'BTCUSDT')).toEqual({ leverage: 10, marginType: 'cross' });
    await ex.createOrder(BTC, 'market', 'buy', 0.01);
    const fees = t.fake.venue.incomeHistory().filter((r) => r.incomeType === 'COMMISSION');
    const lines = await BITGET.income!(ex)(0, BITGET.incomePageSize);
    expect(lines.map((l) => [l.symbol, l.incomeType, Number(l.income)])).toEqual(
      fees.map((r) => ['BTCUSDT', 'COMMISSION', r.income]),
    );
    expect(fees.length).toBeGreaterThan(0);
  });
});

/**
 * The fake's OKX v5 dialect, driven by an unmodified ccxt `okx` (key, secret and passphrase set, the
 * OKX profile's options): every unified method the live venue needs parses every answer the dialect
 * gives — loadMarkets, fetchTime, fetchOrderBook, fetchOHLCV, fetchBalance, fetchPositions,
 * createOrder (limit, post-only, market, reduce-only, under a clOrdId, and a conditional stop),
 * fetchOrder and fetchOpenOrders (plain and trigger), cancelOrder, cancelOrders, fetchMyTrades — and
 * the answers agree with the fake's engine. Refusals come as OKX's codes, which ccxt files under its
 * classes; a wrong passphrase is refused like a wrong signature. Amounts are OKX's contracts, worth
 * 0.01 BTC each on BTC-USDT-SWAP (its real ctVal): the engine's base quantities divided by it.
 */
import ccxt from 'ccxt';
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OKX } from '../../../src/adapters/exchanges/okx.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { OKX_DIALECT } from '../../support/fake-exchange/dialects/okx/index.js';
import { LEVERAGE } from '../../support/fake-exchange/ledger.js';
import { candleAt, fundingAt, instrumentById, MINUTE } from '../../support/fake-exchange/market-data.js';
import { FAKE_CREDENTIALS } from '../../support/fake-exchange/server.js';

/** OKX has exchange-side stops (its profile's, never null there). */
const OKX_STOPS = OKX.exchangeStops!;

const BTC = 'BTC/USDT:USDT';
const btc = instrumentById('BTCUSDT')!;
const DEPOSIT = 1_000_000;
/** BTC-USDT-SWAP's contract value (ctVal), as on OKX. */
const CT_VAL = 0.01;
/** An engine quantity (BTC) in contracts, as OKX writes it. */
const contracts = (btcQty: number) => Number((btcQty / CT_VAL).toPrecision(12));

/** The paths the dialect serves; a request to any other is a path ccxt needs that it lacks. */
const SERVED =
  /^\/api\/v5\/(public\/(time|instruments|funding-rate)|market\/(books|candles|history-candles|tickers?)|asset\/currencies|account\/(balance|positions|config|leverage-info|set-leverage|set-position-mode|bills)|trade\/(order|orders-pending|orders-history|cancel-order|cancel-batch-orders|fills-history|fills|order-algo|orders-algo-pending|cancel-algos))$/;

let t: TradingFake;
let ex: Exchange;

beforeAll(async () => {
  t = await openTradingFake({ deposit: DEPOSIT, dialect: OKX_DIALECT });
  ex = t.exchange;
  await ex.loadMarkets();
});

beforeEach(() => t.reset());

afterAll(async () => {
  await t.close();
});

const book = () => t.fake.venue.book(btc);
const paths = () => t.fake.calls.map((c) => new URL(c.url, 'http://x').pathname);

describe('ccxt okx on the fake exchange (OKX v5 dialect)', () => {
  it('loads the swap markets from public/instruments, with the contract size OKX gives BTC (0.01), the precision in contracts, and only served paths', async () => {
    const fresh = await openTradingFake({ dialect: OKX_DIALECT });
    try {
      const markets = await fresh.exchange.loadMarkets();
      const m = markets[BTC]!;
      expect(m).toMatchObject({ id: 'BTC-USDT-SWAP', type: 'swap', linear: true, settle: 'USDT', active: true });
      expect(m.contractSize).toBe(CT_VAL);
      expect(m.precision).toMatchObject({ price: Number(btc.tickSize), amount: contracts(Number(btc.stepSize)) });
      const asked = fresh.fake.calls.map((c) => new URL(c.url, 'http://x'));
      expect(
        asked.every((u) => SERVED.test(u.pathname)),
        asked.map((u) => u.pathname).join(' '),
      ).toBe(true);
      expect(
        asked.some((u) => u.pathname === '/api/v5/public/instruments' && u.searchParams.get('instType') === 'SWAP'),
      ).toBe(true);
    } finally {
      await fresh.close();
    }
  });

  it('reads the time, the book and closed candles as the engine has them', async () => {
    const now = t.fake.venue.now();
    expect(Math.abs((await ex.fetchTime())! - now)).toBeLessThan(2_000);
    const ob = await ex.fetchOrderBook(BTC, 50);
    // ccxt keeps OKX's third field of a level (liquidated orders, "0") after price and size.
    const [bid, bidQty] = book().bids[0]!;
    const [ask, askQty] = book().asks[0]!;
    expect(ob.bids[0]!.slice(0, 2)).toEqual([bid, contracts(bidQty)]);
    expect(ob.asks[0]!.slice(0, 2)).toEqual([ask, contracts(askQty)]);
    const since = Math.floor(now / MINUTE) * MINUTE - 5 * MINUTE;
    const bars = await ex.fetchOHLCV(BTC, '1m', since, 5);
    expect(bars.map((b) => b[0])).toEqual([0, 1, 2, 3, 4].map((i) => since + i * MINUTE));
    const c = candleAt(t.fake.seed, btc, since);
    // ccxt reads a swap's candle volume from volCcy (the base), not vol (contracts).
    expect(bars[0]).toEqual([since, c.open, c.high, c.low, c.close, c.volume]);
    const funding = await ex.fetchFundingRate(BTC);
    expect(funding.fundingRate).toBe(fundingAt(t.fake.seed, btc, funding.fundingTimestamp!));
    expect(funding.fundingTimestamp! % (8 * 3_600_000)).toBe(0);
  });

  it('rests a limit order under our clOrdId, finds it open and by clOrdId, cancels it and finds it cancelled', async () => {
    const price = book().bids[2]![0];
    const placed = await ex.createOrder(BTC, 'limit', 'buy', 1, price, { clientOrderId: 'tcsA1' });
    const open = await ex.fetchOpenOrders(BTC);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      id: placed.id,
      clientOrderId: 'tcsA1',
      status: 'open',
      price,
      amount: 1,
      filled: 0,
    });
    expect(await ex.fetchOrder('', BTC, OKX.lookupParams('tcsA1'))).toMatchObject({ id: placed.id, status: 'open' });
    expect(t.fake.venue.open('BTCUSDT').map((o) => o.origQty)).toEqual([CT_VAL]);
    await ex.cancelOrder(placed.id!, BTC);
    expect(await ex.fetchOpenOrders(BTC)).toHaveLength(0);
    expect(await ex.fetchOrder(placed.id!, BTC)).toMatchObject({ status: 'canceled', clientOrderId: 'tcsA1' });
    expect(paths()).toContain('/api/v5/trade/order');
  });

  it('takes with a market order: its fills, the position and the balance agree with the engine', async () => {
    const placed = await ex.createOrder(BTC, 'market', 'buy', 2, undefined, { clientOrderId: 'tcsM1' });
    expect(await ex.fetchOrder(placed.id!, BTC)).toMatchObject({
      status: 'closed',
      filled: 2,
      clientOrderId: 'tcsM1',
    });
    const trades = await ex.fetchMyTrades(BTC, undefined, undefined, OKX.tradesOfOrderParams(placed.id!));
    const engine = t.fake.venue.trades('BTCUSDT');
    expect(engine.length).toBeGreaterThan(0);
    const byId = <T extends { id?: string | undefined }>(rows: T[]) =>
      [...rows].sort((x, y) => Number(x.id) - Number(y.id));
    expect(byId(trades).map((x) => [x.order, x.price, x.amount])).toEqual(
      engine.map((x) => [String(x.orderId), x.price, contracts(x.qty)]),
    );
    expect(trades.every((x) => x.fee?.currency === 'USDT' && x.fee.cost! > 0)).toBe(true);
    const [position] = await ex.fetchPositions([BTC]);
    expect(position).toMatchObject({ symbol: BTC, side: 'long', contracts: 2, contractSize: CT_VAL });
    expect(t.fake.venue.ledger.position('BTCUSDT').qty).toBe(0.02);
    const balance = await ex.fetchBalance();
    const account = t.fake.venue.account();
    expect(balance['USDT']?.total).toBeCloseTo(account.wallet + account.unrealized, 6);
    expect(OKX.navOf(balance)).toBeCloseTo(account.wallet + account.unrealized, 6);
    expect(balance['USDT']?.free).toBeLessThan(account.wallet);
  });

  it('a reduce-only order stops at flat; a post-only order that would take is accepted and cancelled at once', async () => {
    await ex.createOrder(BTC, 'market', 'buy', 1);
    await ex.createOrder(BTC, 'market', 'sell', 5, undefined, { reduceOnly: true });
    expect(t.fake.venue.ledger.position('BTCUSDT').qty).toBe(0);
    const ask = book().asks[0]![0];
    const po = await ex.createOrder(BTC, 'limit', 'buy', 1, ask, { postOnly: true });
    const seen = await ex.fetchOrder(po.id!, BTC);
    expect(seen).toMatchObject({ status: 'canceled', filled: 0, postOnly: true });
    expect((seen.info as { cancelSource?: string }).cancelSource).toBe('31');
  });

  it('cancels several orders of a symbol by id in one batch (OKX has no cancel-all for swaps)', async () => {
    const bid = book().bids[3]![0];
    const a = await ex.createOrder(BTC, 'limit', 'buy', 1, bid);
    const b = await ex.createOrder(BTC, 'limit', 'buy', 1, bid);
    await ex.cancelOrders([a.id!, b.id!], BTC);
    expect(await ex.fetchOpenOrders(BTC)).toHaveLength(0);
    expect(paths()).toContain('/api/v5/trade/cancel-batch-orders');
  });

  it('places, finds and cancels a close-position stop on the mark (a conditional algo order), and it closes when the mark crosses', async () => {
    await ex.createOrder(BTC, 'market', 'buy', 1);
    const trigger = String(Math.round(t.fake.venue.mark(btc) * 0.9 * 10) / 10);
    const stop = await ex.createOrder(BTC, 'market', 'sell', 0, undefined, OKX_STOPS.params(trigger, 'tcsStop1'));
    const open = await ex.fetchOpenOrders(BTC, undefined, undefined, { ...OKX_STOPS.query });
    expect(open.map((o) => [o.id, o.clientOrderId, OKX_STOPS.resting(o)])).toEqual([[stop.id, 'tcsStop1', true]]);
    t.fake.venue.setPrice('BTCUSDT', Number(trigger) * 0.98);
    t.fake.venue.settle();
    const fired = await ex.fetchOrder(stop.id!, BTC, { ...OKX_STOPS.query });
    expect(OKX_STOPS.resting(fired)).toBe(false);
    const became = OKX_STOPS.triggeredOrderId(fired);
    expect(became).toBeDefined();
    expect(t.fake.venue.ledger.position('BTCUSDT').qty).toBe(0);
    const fills = await ex.fetchMyTrades(BTC, undefined, undefined, OKX.tradesOfOrderParams(became!));
    expect(fills.reduce((s, f) => s + f.amount!, 0)).toBeCloseTo(1, 9);
    t.fake.venue.setPrice('BTCUSDT', null);
    const again = await ex.createOrder(BTC, 'market', 'sell', 0, undefined, OKX_STOPS.params(trigger, 'tcsStop2'));
    await ex.cancelOrder(again.id!, BTC, { ...OKX_STOPS.query });
    expect(await ex.fetchOpenOrders(BTC, undefined, undefined, { ...OKX_STOPS.query })).toHaveLength(0);
  });

  it("cancel-all-after, the OKX profile's dead-man's switch: the book's orders go when it runs out, the conditional stop stays", async () => {
    await ex.createOrder(BTC, 'market', 'buy', 1);
    const far = book().bids[5]![0];
    await ex.createOrder(BTC, 'limit', 'buy', 1, far, { clientOrderId: 'rests1' });
    const trigger = String(Math.round(t.fake.venue.mark(btc) * 0.9 * 10) / 10);
    const stop = await ex.createOrder(BTC, 'market', 'sell', 0, undefined, OKX_STOPS.params(trigger, 'tcsStop3'));
    await OKX.deadMansSwitch!(ex)('BTC-USDT-SWAP', 10_000);
    await expect(OKX.deadMansSwitch!(ex)('BTC-USDT-SWAP', 5_000)).rejects.toThrow(/timeOut/);
    t.advance(9_000);
    expect(await ex.fetchOpenOrders(BTC)).toHaveLength(1);
    t.advance(2_000);
    expect(await ex.fetchOpenOrders(BTC)).toHaveLength(0);
    const stops = await ex.fetchOpenOrders(BTC, undefined, undefined, { ...OKX_STOPS.query });
    expect(stops.map((o) => o.id)).toEqual([stop.id]);
    expect(paths()).toContain('/api/v5/trade/cancel-all-after');
  });

  it("refuses with OKX's codes, which ccxt files by class: a clOrdId in use, too little margin, a bad signature or passphrase", async () => {
    const bid = book().bids[3]![0];
    await ex.createOrder(BTC, 'limit', 'buy', 1, bid, { clientOrderId: 'dup1' });
    await expect(ex.createOrder(BTC, 'limit', 'buy', 1, bid, { clientOrderId: 'dup1' })).rejects.toThrow(/51016/);
    const duplicate = await ex
      .createOrder(BTC, 'limit', 'buy', 1, bid, { clientOrderId: 'dup1' })
      .catch((e: unknown) => e);
    expect(OKX.errorCode(duplicate)).toBe(OKX.duplicateOrderCode);
    const broke = await ex.createOrder(BTC, 'limit', 'buy', contracts(999), bid).catch((e: unknown) => e);
    expect(broke).toBeInstanceOf(ccxt.InsufficientFunds);
    expect(OKX.errorCode(broke)).toBe(51008);
    for (const wrong of [{ secret: 'other' }, { passphrase: 'other' }]) {
      const other = await openTradingFake({ dialect: OKX_DIALECT, credentials: { ...FAKE_CREDENTIALS, ...wrong } });
      try {
        await expect(other.exchange.fetchBalance()).rejects.toBeInstanceOf(ccxt.AuthenticationError);
      } finally {
        await other.close();
      }
    }
  });

  it("the OKX profile's account and income calls read the fake: time, net mode, account level, leverage, fees", async () => {
    expect(Math.abs((await OKX.account.serverTime(ex)) - t.fake.venue.now())).toBeLessThan(2_000);
    expect(await OKX.account.hedgeMode(ex)).toBe(false);
    expect(await OKX.account.multiAssets(ex)).toBe(false);
    expect(await OKX.account.symbolSettings(ex, 'BTC-USDT-SWAP')).toEqual({ leverage: LEVERAGE, marginType: 'cross' });
    await ex.setLeverage(10, BTC, { marginMode: 'cross' });
    expect(await OKX.account.symbolSettings(ex, 'BTC-USDT-SWAP')).toEqual({ leverage: 10, marginType: 'cross' });
    await ex.createOrder(BTC, 'market', 'buy', 1);
    const fees = t.fake.venue.incomeHistory().filter((r) => r.incomeType === 'COMMISSION');
    const lines = await OKX.income!(ex)(0, OKX.incomePageSize);
    expect(lines.map((l) => [l.symbol, l.incomeType, Number(l.income)])).toEqual(
      fees.map((r) => ['BTC-USDT-SWAP', 'COMMISSION', r.income]),
    );
    expect(fees.length).toBeGreaterThan(0);
  });
});

/**
 * A real ccxt `binanceusdm` (keys set, its throttle on) trading on the fake exchange: every unified
 * method the live adapter needs — createOrder (market, limit GTC/IOC, post-only, reduce-only, with
 * a client order id), fetchOrder by client order id, fetchOpenOrders, cancelOrder, cancelAllOrders,
 * fetchBalance, fetchPositions, fetchMyTrades and the countdown — answered from the fake's own
 * book, matching and account, which agree with each other after every step.
 */
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { round } from '../../support/fake-exchange/decimals.js';
import { DEFAULT_FEES } from '../../support/fake-exchange/ledger.js';
import { instrumentById } from '../../support/fake-exchange/market-data.js';

const BTC = 'BTC/USDT:USDT';
const ETH = 'ETH/USDT:USDT';
const btc = instrumentById('BTCUSDT')!;
const DEPOSIT = 1_000_000;

let t: TradingFake;
let ex: Exchange;

beforeAll(async () => {
  t = await openTradingFake({ deposit: DEPOSIT });
  ex = t.exchange;
  await ex.loadMarkets();
});

beforeEach(() => t.reset());

afterAll(async () => {
  await t.close();
});

const book = () => t.fake.venue.book(btc);
const byClientId = (clientOrderId: string, symbol = BTC) => ex.fetchOrder('', symbol, { clientOrderId });

describe('ccxt binanceusdm on the fake exchange', () => {
  it('walks the book with a market order and books the trades, the fees, the position and the balance', async () => {
    const { asks } = book();
    const qty = round(asks[0]![1] + asks[1]![1] / 2, 3);
    const order = await ex.createOrder(BTC, 'market', 'buy', qty, undefined, { clientOrderId: 'walk-1' });

    const second = round(qty - asks[0]![1], 3);
    expect(order).toMatchObject({ clientOrderId: 'walk-1', status: 'closed', filled: qty, remaining: 0 });
    // Binance states avgPrice to 5 decimals.
    expect(order.average).toBeCloseTo((asks[0]![0] * asks[0]![1] + asks[1]![0] * second) / qty, 4);
    const trades = await ex.fetchMyTrades(BTC);
    expect(trades.map((x) => [x.price, x.amount, x.takerOrMaker, x.order])).toEqual([
      [asks[0]![0], asks[0]![1], 'taker', order.id],
      [asks[1]![0], second, 'taker', order.id],
    ]);
    for (const x of trades) expect(x.fee?.cost).toBeCloseTo(x.amount! * x.price! * DEFAULT_FEES.taker, 8);

    // What this order took is gone: the next buy starts where it stopped.
    const next = await ex.createOrder(BTC, 'market', 'buy', 0.002);
    expect(next.average).toBe(asks[1]![0]);

    const [position] = await ex.fetchPositions([BTC]);
    expect(position).toMatchObject({ symbol: BTC, side: 'long', contracts: round(qty + 0.002, 3) });
    const fees = (await ex.fetchMyTrades(BTC)).reduce((sum, x) => sum + x.fee!.cost!, 0);
    const balance = await ex.fetchBalance();
    expect(balance.USDT!.total).toBeCloseTo(DEPOSIT - fees + position!.unrealizedPnl!, 6);
    expect(balance.USDT!.used).toBeCloseTo(position!.initialMargin!, 6);
  });

  it('rests a limit order, finds it by client order id, and fills it as maker when the price crosses it', async () => {
    const price = book().bids[2]![0];
    const placed = await ex.createOrder(BTC, 'limit', 'buy', 0.01, price, { clientOrderId: 'rest-1' });
    expect(placed).toMatchObject({ status: 'open', timeInForce: 'GTC', filled: 0, price });
    expect((await ex.fetchOpenOrders(BTC)).map((o) => o.clientOrderId)).toEqual(['rest-1']);
    expect(await byClientId('rest-1')).toMatchObject({ id: placed.id, status: 'open' });

    t.fake.venue.setPrice('BTCUSDT', round(price - 2 * Number(btc.tickSize), 2)); // best ask now below the order
    const filled = await byClientId('rest-1');
    expect(filled).toMatchObject({ status: 'closed', filled: 0.01, average: price });
    const [trade] = await ex.fetchMyTrades(BTC);
    expect(trade).toMatchObject({ takerOrMaker: 'maker', price, amount: 0.01 });
    expect(trade!.fee!.cost).toBeCloseTo(0.01 * price * DEFAULT_FEES.maker, 8);
    expect(await ex.fetchOpenOrders(BTC)).toEqual([]);
  });

  it('in hedge mode refuses an order that names no position side (-4061), as Binance does', async () => {
    t.fake.venue.settings.dualSidePosition = true;
    await expect(ex.fetchPositionMode(BTC)).resolves.toMatchObject({ hedged: true });
    await expect(ex.createOrder(BTC, 'market', 'buy', 0.002)).rejects.toThrow(/-4061/);
    expect(t.fake.venue.trades('BTCUSDT')).toEqual([]);
  });

  it('refuses a post-only order that would take (-5022) and rests one that would not', async () => {
    const { asks, bids } = book();
    await expect(ex.createOrder(BTC, 'limit', 'buy', 0.01, asks[0]![0], { postOnly: true })).rejects.toMatchObject({
      name: 'OrderNotFillable',
      message: expect.stringContaining('-5022'),
    });
    const resting = await ex.createOrder(BTC, 'limit', 'buy', 0.01, bids[0]![0], { postOnly: true });
    expect(resting).toMatchObject({ status: 'open', postOnly: true, timeInForce: 'PO' });
  });

  it('fills an IOC order up to its price and expires the rest', async () => {
    const { asks } = book();
    const within = round(asks[0]![1] + asks[1]![1] + asks[2]![1], 3);
    const order = await ex.createOrder(BTC, 'limit', 'buy', round(within + 1, 3), asks[2]![0], {
      timeInForce: 'IOC',
      clientOrderId: 'ioc-1',
    });
    expect(order).toMatchObject({ status: 'expired', filled: within, timeInForce: 'IOC' });
    expect(await ex.fetchOpenOrders(BTC)).toEqual([]);
  });

  it('closes no more than the position with reduce-only, and refuses it with no position (-2022)', async () => {
    await ex.createOrder(BTC, 'market', 'buy', 0.05);
    const close = await ex.createOrder(BTC, 'market', 'sell', 0.08, undefined, { reduceOnly: true });
    expect(close).toMatchObject({ filled: 0.05, reduceOnly: true });
    expect(await ex.fetchPositions([BTC])).toEqual([]);
    await expect(ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { reduceOnly: true })).rejects.toMatchObject({
      name: 'InvalidOrder',
      message: expect.stringContaining('-2022'),
    });
  });

  it('cancels one order by client order id, then every order of a symbol', async () => {
    const { bids } = book();
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, bids[3]![0], { clientOrderId: 'c-1' });
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, bids[4]![0], { clientOrderId: 'c-2' });
    await ex.createOrder(ETH, 'limit', 'buy', 0.1, t.fake.venue.book(instrumentById('ETHUSDT')!).bids[3]![0], {
      clientOrderId: 'e-1',
    });

    expect(await ex.cancelOrder('', BTC, { clientOrderId: 'c-1' })).toMatchObject({ status: 'canceled' });
    await expect(ex.cancelOrder('', BTC, { clientOrderId: 'c-1' })).rejects.toMatchObject({
      name: 'OrderNotFound',
      message: expect.stringContaining('-2011'),
    });
    await ex.cancelAllOrders(BTC);
    expect(await ex.fetchOpenOrders(BTC)).toEqual([]);
    expect(await byClientId('c-2')).toMatchObject({ status: 'canceled' });
    expect((await ex.fetchOpenOrders(ETH)).map((o) => o.clientOrderId)).toEqual(['e-1']);
  });

  it('keeps the wallet at deposit + realized PnL - fees over a round trip', async () => {
    await ex.createOrder(BTC, 'market', 'buy', 0.1);
    t.fake.venue.setPrice('BTCUSDT', book().asks[0]![0] + 150);
    await ex.createOrder(BTC, 'market', 'sell', 0.1, undefined, { reduceOnly: true });

    const trades = await ex.fetchMyTrades(BTC);
    const realized = trades.reduce((sum, x) => sum + Number(x.info.realizedPnl), 0);
    const fees = trades.reduce((sum, x) => sum + x.fee!.cost!, 0);
    expect(realized).toBeGreaterThan(0);
    const balance = await ex.fetchBalance();
    expect(balance.USDT!.total).toBeCloseTo(DEPOSIT + realized - fees, 6);
    expect(balance.USDT!.free).toBeCloseTo(DEPOSIT + realized - fees, 6);
    expect(await ex.fetchPositions()).toEqual([]);
  });

  it("cancels a symbol's open orders when its countdown runs out; re-arming defers it, 0 disarms it", async () => {
    const { bids } = book();
    const ethBids = t.fake.venue.book(instrumentById('ETHUSDT')!).bids;
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, bids[3]![0], { clientOrderId: 'd-1' });
    await ex.createOrder(ETH, 'limit', 'buy', 0.1, ethBids[3]![0], { clientOrderId: 'd-2' });
    const armed = await ex.fapiPrivatePostCountdownCancelAll({ symbol: 'BTCUSDT', countdownTime: 10_000 });
    expect(armed).toEqual({ symbol: 'BTCUSDT', countdownTime: '10000' });
    await ex.fapiPrivatePostCountdownCancelAll({ symbol: 'ETHUSDT', countdownTime: 5_000 });
    await ex.fapiPrivatePostCountdownCancelAll({ symbol: 'ETHUSDT', countdownTime: 0 });

    t.advance(9_000);
    await ex.fapiPrivatePostCountdownCancelAll({ symbol: 'BTCUSDT', countdownTime: 10_000 }); // the next cycle's heartbeat
    t.advance(9_000);
    expect((await ex.fetchOpenOrders(BTC)).map((o) => o.clientOrderId)).toEqual(['d-1']);

    t.advance(1_000);
    expect(await ex.fetchOpenOrders(BTC)).toEqual([]);
    expect(await byClientId('d-1')).toMatchObject({ status: 'canceled' });
    expect((await ex.fetchOpenOrders(ETH)).map((o) => o.clientOrderId)).toEqual(['d-2']);
    expect(t.fake.venue.countdowns.deadline('BTCUSDT')).toBeNull();
  });

  it("refuses what breaks the symbol's filters with Binance's codes", async () => {
    const mark = t.fake.venue.mark(btc);
    const refused = async (run: Promise<unknown>, error: string, code: number) =>
      expect(run).rejects.toMatchObject({ name: error, message: expect.stringContaining(`${code}`) });
    // ccxt rounds amounts and prices itself; the raw endpoint shows what the exchange refuses.
    const raw = (params: Record<string, string>) =>
      ex.fapiPrivatePostOrder({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.01', ...params });
    await refused(raw({ quantity: '0.0105' }), 'BadRequest', -1111);
    await refused(raw({ type: 'LIMIT', timeInForce: 'GTC', price: '59000.05' }), 'BadRequest', -4014);
    await refused(raw({ type: 'LIMIT', timeInForce: 'GTC', price: '59000.125' }), 'BadRequest', -1111);
    await refused(raw({ quantity: '121' }), 'BadRequest', -4005);
    await refused(ex.createOrder(BTC, 'market', 'buy', 0.001), 'InvalidOrder', -4164);
    await refused(ex.createOrder(BTC, 'limit', 'buy', 0.01, round(mark * 1.06, 1)), 'BadRequest', -4016);
    await refused(ex.createOrder(BTC, 'limit', 'sell', 0.01, round(mark * 0.94, 1)), 'BadRequest', -4024);
    await refused(ex.createOrder(BTC, 'limit', 'buy', 999, round(mark, 1)), 'InsufficientFunds', -2019);
    await refused(
      ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 'no spaces' }),
      'BadRequest',
      -4015,
    );
    await refused(
      ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 'x'.repeat(37) }),
      'BadRequest',
      -4015,
    );
    const longest = 'A.b:c/d_e-' + '9'.repeat(26);
    expect(await ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: longest })).toMatchObject({
      clientOrderId: longest,
      status: 'closed',
    });
    expect(await ex.fetchOpenOrders(BTC)).toEqual([]);
  });

  it('refuses a client order id again only while its order is open (-4116)', async () => {
    const price = book().bids[3]![0];
    await ex.createOrder(BTC, 'limit', 'buy', 0.01, price, { clientOrderId: 'dup-1' });
    await expect(ex.createOrder(BTC, 'limit', 'buy', 0.01, price, { clientOrderId: 'dup-1' })).rejects.toMatchObject({
      name: 'InvalidOrder',
      message: expect.stringContaining('-4116'),
    });
    await ex.cancelOrder('', BTC, { clientOrderId: 'dup-1' });
    expect(await ex.createOrder(BTC, 'limit', 'buy', 0.01, price, { clientOrderId: 'dup-1' })).toMatchObject({
      status: 'open',
    });

    // A filled order's id is free again: resending the same intent trades twice. Look it up first.
    const first = await ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 'dup-2' });
    const again = await ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: 'dup-2' });
    expect(again.id).not.toBe(first.id);
    expect((await byClientId('dup-2')).id).toBe(again.id);
    expect((await ex.fetchPositions([BTC]))[0]!.contracts).toBe(0.02);
  });
});

/**
 * Binance spot's answers (/api/v3) in its own shapes, field for field as in ccxt's static test
 * fixtures (ccxt/ccxt ts/src/test/static/response/binance.json: the spot createOrder, fetchOrder,
 * fetchOpenOrders, fetchMyTrades and fetchBalance entries) and Binance's spot API docs where the
 * fixtures have no entry (cancel-all, bookTicker): numbers as strings with the asset's decimals,
 * ids and times as numbers. The engine's orders and trades (../../venue.ts) are read as spot ones.
 */
import type { FakeInstrument } from '../../market-data.js';
import { FAKE_INSTRUMENTS, instrumentById } from '../../market-data.js';
import type { OrderRecord, TradeRecord, Venue } from '../../venue.js';

const fixed = (value: number, decimals = 8) => value.toFixed(decimals);
const inst = (symbol: string): FakeInstrument => instrumentById(symbol)!;

/** LIMIT_MAKER is the engine's GTX limit (post-only); it carries no timeInForce on spot. */
const spotType = (o: OrderRecord) => (o.type === 'LIMIT' && o.timeInForce === 'GTX' ? 'LIMIT_MAKER' : o.type);
const spotTif = (o: OrderRecord) => (o.timeInForce === 'GTX' ? 'GTC' : o.timeInForce);

function orderCore(o: OrderRecord) {
  return {
    symbol: o.symbol,
    orderId: o.orderId,
    orderListId: -1,
    clientOrderId: o.clientOrderId,
    price: fixed(o.price),
    origQty: fixed(o.origQty),
    executedQty: fixed(o.executedQty),
    cummulativeQuoteQty: fixed(o.cumQuote),
    status: o.status,
    timeInForce: spotTif(o),
    type: spotType(o),
    side: o.side,
  };
}

/** POST /api/v3/order, newOrderRespType FULL: the order as placed, with the trades it made then. */
export function orderFull(o: OrderRecord, trades: readonly TradeRecord[]) {
  return {
    ...orderCore(o),
    transactTime: o.time,
    origQuoteOrderQty: fixed(0),
    workingTime: o.time,
    fills: trades.map((t) => ({
      price: fixed(t.price),
      qty: fixed(t.qty),
      commission: fixed(t.commission),
      commissionAsset: 'USDT',
      tradeId: t.id,
    })),
    selfTradePreventionMode: 'EXPIRE_MAKER',
  };
}

/** GET /api/v3/order and /api/v3/openOrders. */
export function orderQuery(o: OrderRecord) {
  return {
    ...orderCore(o),
    stopPrice: fixed(0),
    icebergQty: fixed(0),
    time: o.time,
    updateTime: o.updateTime,
    isWorking: true,
    workingTime: o.time,
    origQuoteOrderQty: fixed(0),
    selfTradePreventionMode: 'EXPIRE_MAKER',
  };
}

/** DELETE /api/v3/order, and each entry of DELETE /api/v3/openOrders. */
export function orderCancelled(o: OrderRecord) {
  return {
    ...orderCore(o),
    origClientOrderId: o.clientOrderId,
    transactTime: o.updateTime,
    selfTradePreventionMode: 'EXPIRE_MAKER',
  };
}

/**
 * GET /api/v3/myTrades. The commission is in USDT: Binance takes a buy's from the base asset (or
 * BNB with the discount on), which the engine's one-currency books do not model
 * (docs/operate/binance-spot.md says what the venue does with a base-asset commission).
 */
export function myTrade(t: TradeRecord) {
  return {
    symbol: t.symbol,
    id: t.id,
    orderId: t.orderId,
    orderListId: -1,
    price: fixed(t.price),
    qty: fixed(t.qty),
    quoteQty: fixed(t.quoteQty),
    commission: fixed(t.commission),
    commissionAsset: 'USDT',
    time: t.time,
    isBuyer: t.side === 'BUY',
    isMaker: t.maker,
    isBestMatch: true,
  };
}

/**
 * Each asset's balance, free and locked, from the engine's books read as spot: the base asset held
 * is the engine's (long) position; the USDT is its wallet less what the holdings cost (wallet =
 * deposit + realized − fees, so USDT = deposit − fees − cost of what is held + proceeds of what was
 * sold); an open order locks what it would spend (a buy its quote, a sell its base).
 */
export function balances(venue: Venue): Array<{ asset: string; free: number; locked: number }> {
  const held = new Map<string, number>();
  let usdt = venue.ledger.wallet;
  for (const p of venue.ledger.open()) {
    held.set(inst(p.symbol).base, p.qty);
    usdt -= p.qty * p.entryPrice;
  }
  const locked = new Map<string, number>();
  for (const o of venue.open()) {
    const left = o.origQty - o.executedQty;
    const [asset, amount] = o.side === 'BUY' ? ['USDT', left * o.price] : [inst(o.symbol).base, left];
    locked.set(asset, (locked.get(asset) ?? 0) + amount);
  }
  const assets = ['USDT', ...FAKE_INSTRUMENTS.map((i) => i.base)];
  return assets.map((asset) => {
    const total = asset === 'USDT' ? usdt : (held.get(asset) ?? 0);
    const lock = locked.get(asset) ?? 0;
    return { asset, free: total - lock, locked: lock };
  });
}

/** GET /api/v3/account (omitZeroBalances false: every asset listed). */
export function account(venue: Venue) {
  return {
    makerCommission: 10,
    takerCommission: 10,
    buyerCommission: 0,
    sellerCommission: 0,
    commissionRates: { maker: '0.00100000', taker: '0.00100000', buyer: '0.00000000', seller: '0.00000000' },
    canTrade: true,
    canWithdraw: true,
    canDeposit: true,
    brokered: false,
    requireSelfTradePrevention: false,
    preventSor: false,
    updateTime: venue.ledger.walletUpdateTime,
    accountType: 'SPOT',
    balances: balances(venue).map((b) => ({ asset: b.asset, free: fixed(b.free), locked: fixed(b.locked) })),
    permissions: ['SPOT'],
    uid: 354937868,
  };
}

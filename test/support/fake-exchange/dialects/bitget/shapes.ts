/**
 * Bitget V2's answer shapes for USDT-M perpetuals (Bitget API docs, per endpoint; the fields ccxt's
 * bitget parse functions read): the `{code:"00000", msg:"success", requestTime, data}` envelope,
 * contracts, orders, fills, positions (one-way mode), the futures account and its bills. Numbers
 * are strings, as Bitget sends them; order ids are the engine's numbers as strings. Bitget's market
 * ids are the engine's (BTCUSDT). Sizes are in the base coin: ccxt gives every Bitget contract a
 * contractSize of 1 (ccxt: fetchDefaultMarkets), and `sizeMultiplier` is the size step, here the
 * engine's (Bitget's own steps differ per symbol; the fake keeps the engine's rule book).
 */
import type { AccountFigures, IncomeRecord, OrderRecord, TradeRecord } from '../../venue.js';
import type { FakeInstrument } from '../../market-data.js';
import { LIMIT_MAX_QTY } from '../../order-rules.js';

export function envelope(data: unknown, now: number) {
  return { code: '00000', msg: 'success', requestTime: now, data };
}

/** A refusal: `{"code":"40762","msg":"…","requestTime":…,"data":null}`. */
export function failure(code: number, msg: string, now: number) {
  return { code: String(code), msg, requestTime: now, data: null };
}

/** Decimals of a step written as a number (0.10 → 1, 0.001 → 3, 1 → 0). */
function places(step: string): number {
  const text = String(Number(step));
  return text.includes('.') ? text.split('.')[1]!.length : 0;
}

/** GET /api/v2/mix/market/contracts?productType=USDT-FUTURES, one perpetual. */
export function contract(i: FakeInstrument) {
  const pricePlace = places(i.tickSize);
  return {
    symbol: i.id,
    baseCoin: i.base,
    quoteCoin: 'USDT',
    buyLimitPriceRatio: '0.05',
    sellLimitPriceRatio: '0.05',
    feeRateUpRatio: '0.005',
    makerFeeRate: '0.0002',
    takerFeeRate: '0.0006',
    openCostUpRatio: '0.01',
    supportMarginCoins: ['USDT'],
    minTradeNum: String(Number(i.stepSize)),
    // The tick is priceEndStep units of the last of pricePlace decimals (docs: Get Contract Config).
    priceEndStep: String(Math.round(Number(i.tickSize) * 10 ** pricePlace)),
    volumePlace: String(places(i.stepSize)),
    pricePlace: String(pricePlace),
    sizeMultiplier: String(Number(i.stepSize)),
    symbolType: 'perpetual',
    minTradeUSDT: i.minNotional,
    maxSymbolOrderNum: '200',
    maxProductOrderNum: '400',
    maxPositionNum: '150',
    symbolStatus: 'normal',
    offTime: '-1',
    limitOpenTime: '-1',
    deliveryTime: '',
    deliveryStartTime: '',
    deliveryPeriod: '',
    launchTime: '',
    fundInterval: '8',
    minLever: '1',
    maxLever: '125',
    posLimit: '0.05',
    maintainTime: '',
    maxMarketOrderQty: '120',
    maxOrderQty: String(LIMIT_MAX_QTY),
  };
}

const STATE: Record<OrderRecord['status'], string> = {
  NEW: 'live',
  PARTIALLY_FILLED: 'partially_filled',
  FILLED: 'filled',
  CANCELED: 'canceled',
  EXPIRED: 'canceled',
};

/** docs: Place Order, force gtc / ioc / fok / post_only. */
const FORCE: Record<OrderRecord['timeInForce'], string> = { GTC: 'gtc', IOC: 'ioc', FOK: 'fok', GTX: 'post_only' };

/**
 * GET /api/v2/mix/order/detail (`state`) and the entrustedList of orders-pending / orders-history
 * (`status`), one order; `fee` the sum of its fills' (negative: paid).
 */
export function order(o: OrderRecord, fee: number, stateField: 'state' | 'status') {
  const avg = o.executedQty > 0 ? o.cumQuote / o.executedQty : 0;
  return {
    symbol: o.symbol,
    size: String(o.origQty),
    orderId: String(o.orderId),
    clientOid: o.clientOrderId,
    baseVolume: String(o.executedQty),
    priceAvg: o.executedQty > 0 ? String(avg) : '',
    fee: String(fee),
    price: o.type === 'MARKET' ? '' : String(o.price),
    [stateField]: STATE[o.status],
    side: o.side === 'BUY' ? 'buy' : 'sell',
    force: FORCE[o.timeInForce],
    totalProfits: '0',
    posSide: 'net',
    marginCoin: 'USDT',
    presetStopSurplusPrice: '',
    presetStopLossPrice: '',
    quoteVolume: String(o.cumQuote),
    orderType: o.type === 'MARKET' ? 'market' : 'limit',
    leverage: '20',
    marginMode: 'crossed',
    reduceOnly: o.reduceOnly ? 'YES' : 'NO',
    enterPointSource: 'API',
    tradeSide: o.reduceOnly ? 'close' : 'open',
    posMode: 'one_way_mode',
    orderSource: o.type === 'MARKET' ? 'market' : 'normal',
    cancelReason: o.status === 'EXPIRED' && o.timeInForce === 'GTX' ? 'post_only_cancel' : '',
    cTime: String(o.time),
    uTime: String(o.updateTime),
  };
}

/** GET /api/v2/mix/order/fills, one fill (totalFee negative: paid; deduction "no"). */
export function fill(t: TradeRecord) {
  return {
    tradeId: String(t.id),
    symbol: t.symbol,
    orderId: String(t.orderId),
    price: String(t.price),
    baseVolume: String(t.qty),
    feeDetail: [{ deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '0', totalFee: String(-t.commission) }],
    side: t.side === 'BUY' ? 'buy' : 'sell',
    quoteVolume: String(t.quoteQty),
    profit: String(t.realizedPnl),
    enterPointSource: 'API',
    tradeSide: 'open',
    posMode: 'one_way_mode',
    tradeScope: t.maker ? 'maker' : 'taker',
    cTime: String(t.time),
  };
}

type PositionFigures = AccountFigures['positions'][number];

/** GET /api/v2/mix/position/all-position, one position in one-way mode (holdSide long/short, total unsigned). */
export function position(p: PositionFigures, leverage: number) {
  return {
    marginCoin: 'USDT',
    symbol: p.symbol,
    holdSide: p.qty > 0 ? 'long' : 'short',
    openDelegateSize: '0',
    marginSize: String(p.margin),
    available: String(Math.abs(p.qty)),
    locked: '0',
    total: String(Math.abs(p.qty)),
    leverage: String(leverage),
    achievedProfits: '0',
    openPriceAvg: String(p.entryPrice),
    marginMode: 'crossed',
    posMode: 'one_way_mode',
    unrealizedPL: String(p.unrealized),
    liquidationPrice: '0',
    keepMarginRate: '0.004',
    markPrice: String(p.mark),
    marginRatio: '0',
    breakEvenPrice: String(p.entryPrice),
    totalFee: '0',
    deductedFee: '0',
    cTime: String(p.updateTime),
    uTime: String(p.updateTime),
  };
}

/** GET /api/v2/mix/account/accounts?productType=USDT-FUTURES: the USDT futures account; accountEquity is wallet plus unrealised PnL. */
export function accounts(a: AccountFigures) {
  const equity = a.wallet + a.unrealized;
  return [
    {
      marginCoin: 'USDT',
      locked: String(a.openOrderMargin),
      available: String(a.wallet),
      crossedMaxAvailable: String(a.available),
      isolatedMaxAvailable: String(a.available),
      maxTransferOut: String(a.available),
      accountEquity: String(equity),
      usdtEquity: String(equity),
      btcEquity: '',
      crossedRiskRate: '0',
      unrealizedPL: String(a.unrealized),
      coupon: '0',
      unionTotalMargin: String(equity),
      unionAvailable: String(a.available),
      unionMm: '0',
      assetList: [],
      isolatedMargin: '0',
      crossedMargin: String(a.positionMargin),
      crossedUnrealizedPL: String(a.unrealized),
      isolatedUnrealizedPL: '0',
      assetMode: 'single',
    },
  ];
}

/**
 * GET /api/v2/mix/account/bill, one line: a trade's fee (businessType open_long and the like, `fee`
 * negative) or a funding settlement (contract_settle_fee, `amount` signed). The fake writes every
 * fee under open_long: the income tally reads only `fee` and `businessType` of a funding line.
 */
export function bill(r: IncomeRecord) {
  const fee = r.incomeType === 'COMMISSION';
  return {
    billId: String(r.tranId),
    symbol: r.symbol,
    amount: fee ? '0' : String(r.income),
    fee: fee ? String(r.income) : '0',
    feeByCoupon: '',
    businessType: fee ? 'open_long' : 'contract_settle_fee',
    coin: r.asset,
    balance: '',
    cTime: String(r.time),
  };
}

/**
 * Bybit v5's answer shapes for USDT linear perpetuals (Bybit v5 docs, per endpoint; the field lists
 * ccxt's bybit parse functions read): the `{retCode, retMsg, result, retExtInfo, time}` envelope,
 * instruments, orders, positions, executions and the unified wallet. Numbers are strings, as Bybit
 * sends them; order ids are the engine's numbers as strings.
 */
import type { AccountFigures, IncomeRecord, OrderRecord, TradeRecord } from '../../venue.js';
import type { FakeInstrument } from '../../market-data.js';
import { LIMIT_MAX_QTY, MARKET_MAX_QTY } from '../../order-rules.js';

export function envelope(result: unknown, time: number, retCode = 0, retMsg = 'OK') {
  return { retCode, retMsg, result, retExtInfo: {}, time };
}

/** GET /v5/market/instruments-info, one linear perpetual. */
export function instrumentInfo(i: FakeInstrument) {
  return {
    symbol: i.id,
    contractType: 'LinearPerpetual',
    status: 'Trading',
    baseCoin: i.base,
    quoteCoin: 'USDT',
    settleCoin: 'USDT',
    launchTime: '1585526400000',
    deliveryTime: '0',
    deliveryFeeRate: '',
    priceScale: String(i.pricePrecision),
    leverageFilter: { minLeverage: '1', maxLeverage: '100.00', leverageStep: '0.01' },
    priceFilter: { minPrice: i.tickSize, maxPrice: '1999999.80', tickSize: i.tickSize },
    lotSizeFilter: {
      maxOrderQty: String(LIMIT_MAX_QTY),
      minOrderQty: i.stepSize,
      qtyStep: i.stepSize,
      postOnlyMaxOrderQty: String(LIMIT_MAX_QTY),
      maxMktOrderQty: String(MARKET_MAX_QTY),
      minNotionalValue: i.minNotional,
    },
    unifiedMarginTrade: true,
    fundingInterval: 480,
    copyTrading: 'both',
    upperFundingRate: '0.00375',
    lowerFundingRate: '-0.00375',
    isPreListing: false,
    preListingInfo: null,
  };
}

const STATUS: Record<OrderRecord['status'], string> = {
  NEW: 'New',
  PARTIALLY_FILLED: 'PartiallyFilled',
  FILLED: 'Filled',
  // Bybit shows a cancelled linear order as Cancelled, filled in part or not (PartiallyFilledCanceled is spot's).
  CANCELED: 'Cancelled',
  EXPIRED: 'Cancelled',
};

const TIME_IN_FORCE: Record<OrderRecord['timeInForce'], string> = {
  GTC: 'GTC',
  IOC: 'IOC',
  FOK: 'FOK',
  GTX: 'PostOnly',
};

/** GET /v5/order/realtime and /v5/order/history, one order. */
export function order(o: OrderRecord) {
  const avg = o.executedQty > 0 ? o.cumQuote / o.executedQty : 0;
  const leaves = o.status === 'NEW' || o.status === 'PARTIALLY_FILLED' ? o.origQty - o.executedQty : 0;
  return {
    orderId: String(o.orderId),
    orderLinkId: o.clientOrderId,
    blockTradeId: '',
    symbol: o.symbol,
    price: o.type === 'MARKET' ? '0' : String(o.price),
    qty: String(o.origQty),
    side: o.side === 'BUY' ? 'Buy' : 'Sell',
    isLeverage: '',
    positionIdx: 0,
    orderStatus: STATUS[o.status],
    cancelType: o.status === 'CANCELED' ? 'CancelByUser' : 'UNKNOWN',
    // A post-only order that would have taken is accepted and cancelled at once (Bybit v5 docs, enums: rejectReason).
    rejectReason:
      o.status === 'EXPIRED' && o.timeInForce === 'GTX' && o.executedQty === 0
        ? 'EC_PostOnlyWillTakeLiquidity'
        : 'EC_NoError',
    avgPrice: o.executedQty > 0 ? String(avg) : '',
    leavesQty: String(leaves),
    leavesValue: String(leaves * o.price),
    cumExecQty: String(o.executedQty),
    cumExecValue: String(o.cumQuote),
    cumExecFee: '0',
    timeInForce: o.type === 'MARKET' ? 'IOC' : TIME_IN_FORCE[o.timeInForce],
    orderType: o.type === 'MARKET' ? 'Market' : 'Limit',
    stopOrderType: '',
    orderIv: '',
    triggerPrice: '',
    takeProfit: '',
    stopLoss: '',
    tpTriggerBy: '',
    slTriggerBy: '',
    triggerDirection: 0,
    triggerBy: '',
    lastPriceOnCreated: '',
    reduceOnly: o.reduceOnly,
    closeOnTrigger: false,
    smpType: 'None',
    smpGroup: 0,
    smpOrderId: '',
    tpslMode: '',
    tpLimitPrice: '',
    slLimitPrice: '',
    placeType: '',
    createdTime: String(o.time),
    updatedTime: String(o.updateTime),
  };
}

/** GET /v5/execution/list, one fill. */
export function execution(t: TradeRecord, o: OrderRecord | undefined, inst: FakeInstrument) {
  return {
    symbol: t.symbol,
    orderId: String(t.orderId),
    orderLinkId: o?.clientOrderId ?? '',
    side: t.side === 'BUY' ? 'Buy' : 'Sell',
    orderPrice: o ? String(o.price) : '',
    orderQty: o ? String(o.origQty) : '',
    leavesQty: o ? String(o.origQty - o.executedQty) : '0',
    createType: 'CreateByUser',
    orderType: o?.type === 'MARKET' ? 'Market' : 'Limit',
    stopOrderType: '',
    execFee: String(t.commission),
    execId: String(t.id),
    execPrice: String(t.price),
    execQty: String(t.qty),
    execType: 'Trade',
    execValue: String(t.quoteQty),
    execTime: String(t.time),
    feeCurrency: 'USDT',
    isMaker: t.maker,
    feeRate: String(t.qty > 0 ? t.commission / t.quoteQty : 0),
    tradeIv: '',
    markIv: '',
    markPrice: '',
    indexPrice: '',
    underlyingPrice: '',
    blockTradeId: '',
    closedSize: '0',
    seq: t.id,
    extraFees: '',
    priceScale: inst.pricePrecision,
  };
}

type PositionFigures = AccountFigures['positions'][number];

/** GET /v5/position/list, one position (one-way mode: positionIdx 0; side '' when flat), with the symbol's leverage and margin mode. */
export function position(p: PositionFigures, settings: { leverage: number; marginType: string }) {
  const size = Math.abs(p.qty);
  return {
    positionIdx: 0,
    riskId: 1,
    riskLimitValue: '2000000',
    symbol: p.symbol,
    side: p.qty > 0 ? 'Buy' : p.qty < 0 ? 'Sell' : '',
    size: String(size),
    avgPrice: String(p.entryPrice),
    positionValue: String(size * p.entryPrice),
    tradeMode: settings.marginType.toUpperCase() === 'ISOLATED' ? 1 : 0,
    autoAddMargin: 0,
    positionStatus: 'Normal',
    leverage: String(settings.leverage),
    markPrice: String(p.mark),
    liqPrice: '',
    bustPrice: '',
    positionIM: String(p.margin),
    positionMM: '0',
    positionBalance: String(p.margin),
    takeProfit: '0',
    stopLoss: '0',
    trailingStop: '0',
    sessionAvgPrice: '',
    delta: '',
    gamma: '',
    vega: '',
    theta: '',
    unrealisedPnl: String(p.unrealized),
    curRealisedPnl: '0',
    cumRealisedPnl: '0',
    adlRankIndicator: size > 0 ? 2 : 0,
    createdTime: String(p.updateTime),
    updatedTime: String(p.updateTime),
    seq: p.updateTime,
    isReduceOnly: false,
    mmrSysUpdatedTime: '',
    leverageSysUpdatedTime: '',
  };
}

/** GET /v5/account/wallet-balance?accountType=UNIFIED: one account, one coin (USDT). */
export function walletBalance(a: AccountFigures) {
  const equity = a.wallet + a.unrealized;
  return {
    list: [
      {
        accountType: 'UNIFIED',
        accountIMRate: equity > 0 ? String((a.positionMargin + a.openOrderMargin) / equity) : '0',
        accountMMRate: '0',
        accountLTV: '0',
        totalEquity: String(equity),
        totalWalletBalance: String(a.wallet),
        totalMarginBalance: String(equity),
        totalAvailableBalance: String(a.available),
        totalPerpUPL: String(a.unrealized),
        totalInitialMargin: String(a.positionMargin + a.openOrderMargin),
        totalMaintenanceMargin: '0',
        coin: [
          {
            coin: 'USDT',
            equity: String(equity),
            usdValue: String(equity),
            walletBalance: String(a.wallet),
            // Bybit no longer fills availableToWithdraw for UNIFIED (2025); ccxt derives free from these.
            locked: '0',
            totalOrderIM: String(a.openOrderMargin),
            totalPositionIM: String(a.positionMargin),
            totalPositionMM: '0',
            unrealisedPnl: String(a.unrealized),
            cumRealisedPnl: '0',
            borrowAmount: '0',
            accruedInterest: '0',
            bonus: '0',
            marginCollateral: true,
            collateralSwitch: true,
          },
        ],
      },
    ],
  };
}

/** GET /v5/account/transaction-log, one line: a fee (TRADE) or a funding payment (SETTLEMENT). */
export function transaction(r: IncomeRecord) {
  const fee = r.incomeType === 'COMMISSION';
  return {
    id: String(r.tranId),
    symbol: r.symbol,
    category: 'linear',
    side: 'None',
    transactionTime: String(r.time),
    type: fee ? 'TRADE' : 'SETTLEMENT',
    qty: '0',
    size: '0',
    currency: r.asset,
    tradePrice: '0',
    funding: fee ? '' : String(-r.income),
    fee: fee ? String(-r.income) : '',
    cashFlow: '0',
    change: String(r.income),
    cashBalance: '0',
    feeRate: '',
    bonusChange: '',
    tradeId: r.tradeId === null ? '' : String(r.tradeId),
    orderId: '',
    orderLinkId: '',
  };
}

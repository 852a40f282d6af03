/**
 * The signed endpoints' answers in Binance USDⓈ-M's own shapes, field for field as in ccxt's static
 * test fixtures (ccxt/ccxt ts/src/test/static/response/binance.json: the swap createOrders,
 * fetchOpenOrder, fetchMyTrades, fetchPositions and fetchBalance entries) and Binance's API docs
 * where the fixtures have no entry (cancel-all, countdownCancelAll, leverageBracket, the coin
 * list): numbers as strings with the instrument's decimals, ids and times as numbers, one-way mode
 * (positionSide BOTH).
 */
import type { SymbolSettings } from './account-settings.js';
import type { AlgoRecord } from './algo-orders.js';
import { DEFAULT_FEES } from './ledger.js';
import type { FakeInstrument } from './market-data.js';
import { FAKE_INSTRUMENTS, instrumentById } from './market-data.js';
import type { AccountFigures, IncomeRecord, OrderRecord, TradeRecord } from './venue.js';

const fixed = (value: number, decimals: number) => value.toFixed(decimals);
const qtyText = (inst: FakeInstrument, qty: number) => fixed(qty, inst.quantityPrecision);
const priceText = (inst: FakeInstrument, price: number) => fixed(price, inst.pricePrecision);

function inst(symbol: string): FakeInstrument {
  return instrumentById(symbol)!;
}

function orderFields(o: OrderRecord) {
  const i = inst(o.symbol);
  return {
    orderId: o.orderId,
    symbol: o.symbol,
    status: o.status,
    clientOrderId: o.clientOrderId,
    price: priceText(i, o.price),
    avgPrice: fixed(o.executedQty > 0 ? o.cumQuote / o.executedQty : 0, 5),
    origQty: qtyText(i, o.origQty),
    executedQty: qtyText(i, o.executedQty),
  };
}

const orderTail = (o: OrderRecord) => ({
  timeInForce: o.timeInForce,
  type: o.type,
  reduceOnly: o.reduceOnly,
  closePosition: false,
  side: o.side,
  positionSide: 'BOTH',
  stopPrice: '0.00',
  workingType: 'CONTRACT_PRICE',
  priceProtect: false,
  origType: o.type,
  priceMatch: 'NONE',
  selfTradePreventionMode: 'NONE',
  goodTillDate: 0,
});

/**
 * POST /fapi/v1/algoOrder, GET /fapi/v1/algoOrder and /fapi/v1/openAlgoOrders: a conditional order as
 * the Algo Service shows it (ccxt 4.5's binance parseOrder comment, "linear swap conditional order").
 */
export function algoOrder(o: AlgoRecord) {
  const i = inst(o.symbol);
  return {
    algoId: o.algoId,
    clientAlgoId: o.clientAlgoId,
    algoType: 'CONDITIONAL',
    orderType: 'STOP_MARKET',
    symbol: o.symbol,
    side: o.side,
    positionSide: 'BOTH',
    timeInForce: 'GTC',
    quantity: qtyText(i, o.quantity),
    algoStatus: o.algoStatus,
    actualOrderId: o.actualOrderId === null ? '' : String(o.actualOrderId),
    triggerPrice: priceText(i, o.triggerPrice),
    price: priceText(i, 0),
    icebergQuantity: null,
    selfTradePreventionMode: 'EXPIRE_MAKER',
    workingType: o.workingType,
    priceMatch: 'NONE',
    closePosition: o.closePosition,
    priceProtect: false,
    reduceOnly: o.reduceOnly,
    createTime: o.createTime,
    updateTime: o.updateTime,
    triggerTime: o.triggerTime,
    goodTillDate: 0,
  };
}

/** DELETE /fapi/v1/algoOrder. */
export function algoCancelled(o: AlgoRecord) {
  return { algoId: o.algoId, clientAlgoId: o.clientAlgoId, code: '200', msg: 'success' };
}

/** POST /fapi/v1/order (newOrderRespType RESULT) and DELETE /fapi/v1/order: with cumQty, no time. */
export function orderResult(o: OrderRecord) {
  return {
    ...orderFields(o),
    cumQty: qtyText(inst(o.symbol), o.executedQty),
    cumQuote: fixed(o.cumQuote, 5),
    ...orderTail(o),
    updateTime: o.updateTime,
  };
}

/** GET /fapi/v1/order and /fapi/v1/openOrders: with time, no cumQty. */
export function orderQuery(o: OrderRecord) {
  return {
    ...orderFields(o),
    cumQuote: fixed(o.cumQuote, 5),
    ...orderTail(o),
    time: o.time,
    updateTime: o.updateTime,
  };
}

/** GET /fapi/v1/userTrades. */
export function userTrade(t: TradeRecord) {
  const i = inst(t.symbol);
  return {
    symbol: t.symbol,
    id: t.id,
    orderId: t.orderId,
    side: t.side,
    price: priceText(i, t.price),
    qty: qtyText(i, t.qty),
    realizedPnl: fixed(t.realizedPnl, 8),
    marginAsset: 'USDT',
    quoteQty: fixed(t.quoteQty, 5),
    commission: fixed(t.commission, 8),
    commissionAsset: 'USDT',
    time: t.time,
    positionSide: 'BOTH',
    maker: t.maker,
    buyer: t.side === 'BUY',
  };
}

/** GET /fapi/v1/income: one line of the income history, as Binance writes it (income as a string). */
export function incomeLine(r: IncomeRecord) {
  return {
    symbol: r.symbol,
    incomeType: r.incomeType,
    income: fixed(r.income, 8),
    asset: r.asset,
    info: r.incomeType,
    time: r.time,
    tranId: r.tranId,
    tradeId: r.tradeId === null ? '' : String(r.tradeId),
  };
}

type Figures = AccountFigures['positions'][number];

/** GET /fapi/v1/symbolConfig: one entry per symbol (the shape in ccxt's fetchMarginModes/fetchLeverages). */
export function symbolConfig(symbol: string, s: SymbolSettings) {
  return {
    symbol,
    marginType: s.marginType,
    isAutoAddMargin: 'false',
    leverage: s.leverage,
    maxNotionalValue: '1000000',
  };
}

/** GET /fapi/v3/positionRisk: one entry per symbol with a position or open orders. */
export function positionRisk(p: Figures, wallet: number) {
  const i = inst(p.symbol);
  const mmr = BRACKETS[p.symbol]![0]![1];
  const long = p.qty > 0;
  const size = Math.abs(p.qty);
  const liquidation = long
    ? (size * p.entryPrice - wallet) / (size * (1 - mmr))
    : (wallet + size * p.entryPrice) / (size * (1 + mmr));
  const fee = DEFAULT_FEES.taker;
  return {
    symbol: p.symbol,
    positionSide: 'BOTH',
    positionAmt: qtyText(i, p.qty),
    entryPrice: fixed(p.entryPrice, 8),
    breakEvenPrice: fixed(p.qty === 0 ? 0 : p.entryPrice * (long ? 1 + fee : 1 - fee), 8),
    markPrice: fixed(p.mark, 8),
    unRealizedProfit: fixed(p.unrealized, 8),
    liquidationPrice: fixed(p.qty === 0 ? 0 : Math.max(0, liquidation), 8),
    isolatedMargin: '0',
    notional: fixed(p.notional, 8),
    marginAsset: 'USDT',
    isolatedWallet: '0',
    initialMargin: fixed(p.margin, 8),
    maintMargin: fixed(Math.abs(p.notional) * mmr, 8),
    positionInitialMargin: fixed(p.margin, 8),
    openOrderInitialMargin: '0',
    adl: '2',
    bidNotional: '0',
    askNotional: '0',
    updateTime: p.updateTime,
  };
}

/** GET /fapi/v3/account: the USDT asset (the only margin asset here) and positions. */
export function accountV3(a: AccountFigures, updateTime: number) {
  const margin = a.positionMargin + a.openOrderMargin;
  const marginBalance = a.wallet + a.unrealized;
  const money = (value: number) => fixed(value, 8);
  const maintenance = a.positions.reduce((s, p) => s + Math.abs(p.notional) * BRACKETS[p.symbol]![0]![1], 0);
  const withdrawable = Math.max(0, Math.min(a.wallet, a.available));
  return {
    totalInitialMargin: money(margin),
    totalMaintMargin: money(maintenance),
    totalWalletBalance: money(a.wallet),
    totalUnrealizedProfit: money(a.unrealized),
    totalMarginBalance: money(marginBalance),
    totalPositionInitialMargin: money(a.positionMargin),
    totalOpenOrderInitialMargin: money(a.openOrderMargin),
    totalCrossWalletBalance: money(a.wallet),
    totalCrossUnPnl: money(a.unrealized),
    availableBalance: money(a.available),
    maxWithdrawAmount: money(withdrawable),
    assets: [
      {
        asset: 'USDT',
        walletBalance: money(a.wallet),
        unrealizedProfit: money(a.unrealized),
        marginBalance: money(marginBalance),
        maintMargin: money(maintenance),
        initialMargin: money(margin),
        positionInitialMargin: money(a.positionMargin),
        openOrderInitialMargin: money(a.openOrderMargin),
        crossWalletBalance: money(a.wallet),
        crossUnPnl: money(a.unrealized),
        availableBalance: money(a.available),
        maxWithdrawAmount: money(withdrawable),
        // ccxt skips an asset whose updateTime is 0 (never used): a funded account's is not.
        updateTime,
      },
    ],
    positions: a.positions.map((p) => ({
      symbol: p.symbol,
      positionSide: 'BOTH',
      positionAmt: qtyText(inst(p.symbol), p.qty),
      unrealizedProfit: money(p.unrealized),
      isolatedMargin: '0',
      notional: money(p.notional),
      isolatedWallet: '0',
      initialMargin: money(p.margin),
      maintMargin: money(Math.abs(p.notional) * BRACKETS[p.symbol]![0]![1]),
      updateTime: p.updateTime,
    })),
  };
}

/**
 * Notional floors and maintenance margin ratios per symbol, from the `leverageBrackets` option of
 * ccxt's binance fixture (BTC, ETH; SOL takes the fixture's ADA tiers), first four tiers.
 */
const BRACKETS: Record<string, Array<[floor: number, mmr: number, leverage: number]>> = {
  BTCUSDT: [
    [0, 0.004, 125],
    [50_000, 0.005, 100],
    [250_000, 0.01, 50],
    [3_000_000, 0.025, 20],
  ],
  ETHUSDT: [
    [0, 0.005, 125],
    [100_000, 0.0065, 100],
    [250_000, 0.01, 50],
    [2_000_000, 0.02, 20],
  ],
  SOLUSDT: [
    [0, 0.0065, 75],
    [10_000, 0.01, 50],
    [50_000, 0.02, 25],
    [250_000, 0.05, 10],
  ],
};

/** GET /fapi/v1/leverageBracket (an array; one object when a symbol is given). */
export function leverageBrackets(symbol: string | null) {
  const entry = (id: string) => {
    const tiers = BRACKETS[id]!;
    let cum = 0;
    return {
      symbol: id,
      notionalCoef: 1.0,
      brackets: tiers.map(([floor, mmr, initialLeverage], n) => {
        if (n > 0) cum += floor * (mmr - tiers[n - 1]![1]);
        return {
          bracket: n + 1,
          initialLeverage,
          notionalCap: tiers[n + 1]?.[0] ?? 10 * floor,
          notionalFloor: floor,
          maintMarginRatio: mmr,
          cum,
        };
      }),
    };
  };
  return symbol === null ? FAKE_INSTRUMENTS.map((i) => entry(i.id)) : entry(symbol);
}

/**
 * GET /sapi/v1/capital/config/getall: what ccxt's loadMarkets reads when keys are set
 * (fetchCurrencies; skipped in sandbox and demo mode, or with options.fetchCurrencies = false).
 */
export function coinList() {
  const coins = [{ coin: 'USDT', name: 'TetherUS' }, ...FAKE_INSTRUMENTS.map((i) => ({ coin: i.base, name: i.base }))];
  return coins.map(({ coin, name }) => ({
    coin,
    depositAllEnable: true,
    withdrawAllEnable: true,
    name,
    free: '0',
    locked: '0',
    freeze: '0',
    withdrawing: '0',
    ipoing: '0',
    ipoable: '0',
    storage: '0',
    isLegalMoney: false,
    trading: true,
    networkList: [
      {
        network: coin === 'SOL' ? 'SOL' : 'ETH',
        coin,
        withdrawIntegerMultiple: '0.00000001',
        isDefault: true,
        depositEnable: true,
        withdrawEnable: true,
        depositDesc: '',
        withdrawDesc: '',
        specialTips: '',
        name: coin === 'SOL' ? 'Solana' : 'Ethereum (ERC20)',
        resetAddressStatus: false,
        addressRegex: '',
        memoRegex: '',
        withdrawFee: '1',
        withdrawMin: '10',
        withdrawMax: '10000000',
        minConfirm: 12,
        unLockConfirm: 0,
        sameAddress: false,
        estimatedArrivalTime: 5,
        busy: false,
      },
    ],
  }));
}

/** GET /sapi/v1/margin/allPairs: the spot cross-margin pairs, which loadMarkets also reads with keys set. */
export function marginPairs() {
  return FAKE_INSTRUMENTS.map((i, n) => ({
    base: i.base,
    id: 351_637_150_141_315 + n,
    isBuyAllowed: true,
    isMarginTrade: true,
    isSellAllowed: true,
    quote: 'USDT',
    symbol: i.id,
  }));
}

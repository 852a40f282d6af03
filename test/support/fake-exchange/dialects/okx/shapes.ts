/**
 * OKX v5's answer shapes for USDT-margined swaps (OKX v5 docs, per endpoint; the fields ccxt's okx
 * parse functions read): the `{code:"0", msg:"", data:[…]}` envelope, instruments, orders, fills,
 * positions (net mode), the trading account's balance and bills. Numbers are strings, as OKX sends
 * them; order ids are the engine's numbers as strings. The engine's instruments (BTCUSDT) are OKX's
 * BTC-USDT-SWAP. The engine counts the base; OKX counts contracts of `ctVal` base each, with OKX's
 * real values (BTC 0.01, ETH 0.1, SOL 1: Get instruments), so every size this dialect reads or
 * writes is converted here and a client that forgets the contract size trades 100× too much or too little.
 */
import type { AccountFigures, IncomeRecord, OrderRecord, TradeRecord } from '../../venue.js';
import type { FakeInstrument } from '../../market-data.js';
import { LIMIT_MAX_QTY, MARKET_MAX_QTY } from '../../order-rules.js';

/** OKX's contract value (ctVal) of each swap, in its base: the real ones (Get instruments, instType SWAP). */
const CT_VAL: Record<string, number> = { BTC: 0.01, ETH: 0.1, SOL: 1 };

export function ctValOf(i: FakeInstrument): number {
  return CT_VAL[i.base] ?? 1;
}

/** A quantity of the engine's (the base) as OKX's contracts, as OKX writes it. */
export function szOf(baseQty: number, i: FakeInstrument): string {
  return String(Number((baseQty / ctValOf(i)).toPrecision(12)));
}

/** A size in contracts as sent to OKX, in the engine's base, as the engine's rule book reads it. */
export function baseOfSz(sz: unknown, i: FakeInstrument): string {
  return String(Number((Number(sz) * ctValOf(i)).toPrecision(12)));
}

export function envelope(data: unknown) {
  return { code: '0', msg: '', data };
}

/** The engine's id (BTCUSDT) as OKX's swap instId (BTC-USDT-SWAP). */
export const instIdOf = (i: FakeInstrument) => `${i.base}-USDT-SWAP`;

/** GET /api/v5/public/instruments?instType=SWAP, one USDT-margined perpetual. */
export function instrument(i: FakeInstrument) {
  return {
    instType: 'SWAP',
    instId: instIdOf(i),
    uly: `${i.base}-USDT`,
    instFamily: `${i.base}-USDT`,
    baseCcy: '',
    quoteCcy: '',
    settleCcy: 'USDT',
    ctVal: String(ctValOf(i)),
    ctMult: '1',
    ctValCcy: i.base,
    ctType: 'linear',
    optType: '',
    stk: '',
    listTime: '1606468572000',
    contTdSwTime: '1606468572000',
    expTime: '',
    lever: '100',
    tickSz: i.tickSize,
    lotSz: szOf(Number(i.stepSize), i),
    minSz: szOf(Number(i.stepSize), i),
    maxLmtSz: szOf(LIMIT_MAX_QTY, i),
    maxMktSz: szOf(MARKET_MAX_QTY, i),
    maxLmtAmt: '20000000',
    maxMktAmt: '',
    maxTwapSz: szOf(LIMIT_MAX_QTY, i),
    maxIcebergSz: szOf(LIMIT_MAX_QTY, i),
    maxTriggerSz: szOf(LIMIT_MAX_QTY, i),
    maxStopSz: szOf(MARKET_MAX_QTY, i),
    alias: '',
    state: 'live',
    ruleType: 'normal',
    instIdCode: 10_000 + i.pricePrecision,
  };
}

const STATE: Record<OrderRecord['status'], string> = {
  NEW: 'live',
  PARTIALLY_FILLED: 'partially_filled',
  FILLED: 'filled',
  CANCELED: 'canceled',
  EXPIRED: 'canceled',
};

function ordType(o: OrderRecord): string {
  if (o.type === 'MARKET') return 'market';
  return { GTC: 'limit', GTX: 'post_only', IOC: 'ioc', FOK: 'fok' }[o.timeInForce];
}

/** GET /api/v5/trade/order, orders-pending and orders-history, one order; `fee` the sum of its fills' (negative: paid). */
export function order(o: OrderRecord, inst: FakeInstrument, fee: number) {
  const avg = o.executedQty > 0 ? o.cumQuote / o.executedQty : 0;
  // docs: Get order details, cancelSource 31 "The post-only order will take liquidity in taker orders".
  const postOnlyCancelled = o.status === 'EXPIRED' && o.timeInForce === 'GTX' && o.executedQty === 0;
  return {
    instType: 'SWAP',
    instId: instIdOf(inst),
    ccy: '',
    ordId: String(o.orderId),
    clOrdId: o.clientOrderId,
    tag: '',
    px: o.type === 'MARKET' ? '' : String(o.price),
    pxUsd: '',
    pxVol: '',
    pxType: '',
    sz: szOf(o.origQty, inst),
    pnl: '0',
    ordType: ordType(o),
    side: o.side === 'BUY' ? 'buy' : 'sell',
    posSide: 'net',
    tdMode: 'cross',
    accFillSz: szOf(o.executedQty, inst),
    fillPx: '',
    tradeId: '',
    fillSz: '0',
    fillTime: '',
    avgPx: o.executedQty > 0 ? String(avg) : '',
    state: STATE[o.status],
    stpId: '',
    stpMode: 'cancel_maker',
    lever: '',
    attachAlgoClOrdId: '',
    tpTriggerPx: '',
    tpTriggerPxType: '',
    tpOrdPx: '',
    slTriggerPx: '',
    slTriggerPxType: '',
    slOrdPx: '',
    attachAlgoOrds: [],
    linkedAlgoOrd: { algoId: '' },
    feeCcy: 'USDT',
    fee: String(fee),
    rebateCcy: 'USDT',
    rebate: '0',
    source: '',
    category: 'normal',
    reduceOnly: String(o.reduceOnly),
    isTpLimit: 'false',
    cancelSource: postOnlyCancelled ? '31' : o.status === 'CANCELED' ? '1' : '',
    cancelSourceReason: postOnlyCancelled
      ? 'The post-only order will take liquidity in taker orders'
      : o.status === 'CANCELED'
        ? 'Order canceled by user'
        : '',
    quickMgnType: '',
    algoClOrdId: '',
    algoId: '',
    uTime: String(o.updateTime),
    cTime: String(o.time),
  };
}

/** GET /api/v5/trade/fills-history, one fill (fee negative: paid). */
export function fill(t: TradeRecord, o: OrderRecord | undefined, inst: FakeInstrument) {
  return {
    instType: 'SWAP',
    instId: instIdOf(inst),
    tradeId: String(t.id),
    ordId: String(t.orderId),
    clOrdId: o?.clientOrderId ?? '',
    billId: String(t.id),
    subType: t.side === 'BUY' ? '1' : '2',
    tag: '',
    fillPx: String(t.price),
    fillSz: szOf(t.qty, inst),
    fillIdxPx: '',
    fillPnl: '0',
    fillPxVol: '',
    fillPxUsd: '',
    fillMarkVol: '',
    fillFwdPx: '',
    fillMarkPx: '',
    side: t.side === 'BUY' ? 'buy' : 'sell',
    posSide: 'net',
    execType: t.maker ? 'M' : 'T',
    feeCcy: 'USDT',
    fee: String(-t.commission),
    ts: String(t.time),
    fillTime: String(t.time),
  };
}

type PositionFigures = AccountFigures['positions'][number];

/** GET /api/v5/account/positions, one position in net mode (pos signed), cross margin. */
export function position(p: PositionFigures, inst: FakeInstrument, leverage: number) {
  return {
    instType: 'SWAP',
    instId: instIdOf(inst),
    mgnMode: 'cross',
    posId: String(10_000 + inst.pricePrecision),
    posSide: 'net',
    pos: szOf(p.qty, inst),
    posCcy: '',
    availPos: '',
    avgPx: String(p.entryPrice),
    upl: String(p.unrealized),
    uplRatio: p.margin > 0 ? String(p.unrealized / p.margin) : '0',
    uplLastPx: String(p.unrealized),
    lever: String(leverage),
    liqPx: '',
    markPx: String(p.mark),
    imr: String(p.margin),
    margin: '',
    mgnRatio: '',
    mmr: '0',
    liab: '',
    liabCcy: '',
    interest: '0',
    tradeId: '',
    notionalUsd: String(Math.abs(p.notional)),
    optVal: '',
    adl: '1',
    ccy: 'USDT',
    last: String(p.mark),
    idxPx: String(p.mark),
    usdPx: '',
    bePx: String(p.entryPrice),
    deltaBS: '',
    deltaPA: '',
    gammaBS: '',
    gammaPA: '',
    thetaBS: '',
    thetaPA: '',
    vegaBS: '',
    vegaPA: '',
    spotInUseAmt: '',
    spotInUseCcy: '',
    realizedPnl: '0',
    pnl: '0',
    fee: '0',
    fundingFee: '0',
    liqPenalty: '0',
    closeOrderAlgo: [],
    cTime: String(p.updateTime),
    uTime: String(p.updateTime),
    bizRefId: '',
    bizRefType: '',
  };
}

/** GET /api/v5/account/balance: the trading account, one currency (USDT); eq is cash plus unrealised PnL. */
export function balance(a: AccountFigures, now: number) {
  const eq = a.wallet + a.unrealized;
  const frozen = a.positionMargin + a.openOrderMargin;
  return [
    {
      adjEq: '',
      borrowFroz: '',
      imr: String(frozen),
      isoEq: '0',
      mgnRatio: '',
      mmr: '0',
      notionalUsd: '',
      ordFroz: String(a.openOrderMargin),
      totalEq: String(eq),
      uTime: String(now),
      upl: String(a.unrealized),
      details: [
        {
          ccy: 'USDT',
          eq: String(eq),
          cashBal: String(a.wallet),
          availEq: String(a.available),
          availBal: String(a.available),
          frozenBal: String(frozen),
          ordFrozen: String(a.openOrderMargin),
          upl: String(a.unrealized),
          isoEq: '0',
          disEq: String(eq),
          eqUsd: String(eq),
          imr: String(frozen),
          mmr: '0',
          notionalLever: '',
          uTime: String(now),
        },
      ],
    },
  ];
}

/** GET /api/v5/account/bills, one line: a trade's fee (type 2) or a funding fee (type 8). */
export function bill(r: IncomeRecord, inst: FakeInstrument | undefined) {
  const fee = r.incomeType === 'COMMISSION';
  return {
    billId: String(r.tranId),
    instType: 'SWAP',
    instId: inst ? instIdOf(inst) : r.symbol,
    ccy: r.asset,
    type: fee ? '2' : '8',
    subType: fee ? '1' : '173',
    balChg: String(r.income),
    bal: '',
    sz: '0',
    px: '',
    pnl: '0',
    fee: fee ? String(r.income) : '0',
    mgnMode: 'cross',
    execType: '',
    from: '',
    to: '',
    notes: '',
    tradeId: r.tradeId === null ? '' : String(r.tradeId),
    ordId: '',
    clOrdId: '',
    tag: '',
    ts: String(r.time),
  };
}

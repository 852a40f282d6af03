/**
 * Binance USDⓈ-M futures' public market-data endpoints as the fake serves them (moved from
 * server.ts): what ccxt's `binanceusdm` calls for markets, OHLCV, the book, current and historical
 * funding and the 24 h ticker, in Binance's documented shapes (numbers as strings, klines as arrays).
 */
import type { DialectContext } from '../../dialect.js';
import {
  aggregateCandle,
  candleAt,
  FAKE_INSTRUMENTS,
  FUNDING_INTERVAL,
  fundingAt,
  instrumentById,
  MINUTE,
  priceAt,
} from '../../market-data.js';
import type { FakeInstrument } from '../../market-data.js';
import { LIMIT_MAX_QTY, MARKET_MAX_QTY, PERCENT_PRICE } from '../../order-rules.js';

/** The answer to a public GET, or undefined when `pathname` is not one. */
export function publicAnswer(ctx: DialectContext, url: URL): unknown {
  const q = url.searchParams;
  const t = ctx.now();
  const { venue, seed } = ctx;
  switch (url.pathname) {
    case '/fapi/v1/exchangeInfo':
      return exchangeInfo(t, ctx.weightLimit);
    case '/fapi/v1/time':
      return { serverTime: t };
    case '/fapi/v1/klines':
      return klines(instrument(q), q, t, seed, ctx.missing, ctx.damaged);
    case '/fapi/v1/depth':
      return depth(venue.book(instrument(q)), q, t);
    case '/fapi/v1/premiumIndex':
      return premiumIndex(instrument(q), t, seed, venue.mark(instrument(q)));
    case '/fapi/v1/fundingRate':
      return fundingHistory(instrument(q), q, t, seed);
    case '/fapi/v1/ticker/24hr':
      return ticker(instrument(q), t, seed);
    default:
      return undefined;
  }
}

export const TIMEFRAME_MINUTES: Record<string, number> = {
  '1m': 1,
  '3m': 3,
  '5m': 5,
  '15m': 15,
  '30m': 30,
  '1h': 60,
  '2h': 120,
  '4h': 240,
  '6h': 360,
  '8h': 480,
  '12h': 720,
  '1d': 1440,
};

function instrument(q: URLSearchParams): FakeInstrument {
  const id = q.get('symbol');
  const inst = id ? instrumentById(id) : undefined;
  if (!inst) throw new Error(`Invalid symbol ${id}`);
  return inst;
}

function exchangeInfo(t: number, weightLimit: number) {
  return {
    timezone: 'UTC',
    serverTime: t,
    futuresType: 'U_MARGINED',
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: weightLimit },
      { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200 },
    ],
    exchangeFilters: [],
    assets: [{ asset: 'USDT', marginAvailable: true, autoAssetExchange: '-10000' }],
    symbols: FAKE_INSTRUMENTS.map((i) => ({
      symbol: i.id,
      pair: i.id,
      contractType: 'PERPETUAL',
      deliveryDate: 4133404800000,
      onboardDate: 1569398400000,
      status: 'TRADING',
      maintMarginPercent: '2.5000',
      requiredMarginPercent: '5.0000',
      baseAsset: i.base,
      quoteAsset: 'USDT',
      marginAsset: 'USDT',
      pricePrecision: i.pricePrecision,
      quantityPrecision: i.quantityPrecision,
      baseAssetPrecision: 8,
      quotePrecision: 8,
      underlyingType: 'COIN',
      underlyingSubType: [],
      triggerProtect: '0.0500',
      liquidationFee: '0.012500',
      marketTakeBound: '0.05',
      maxMoveOrderLimit: 10000,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: i.tickSize, maxPrice: '4529764', tickSize: i.tickSize },
        { filterType: 'LOT_SIZE', minQty: i.stepSize, maxQty: String(LIMIT_MAX_QTY), stepSize: i.stepSize },
        { filterType: 'MARKET_LOT_SIZE', minQty: i.stepSize, maxQty: String(MARKET_MAX_QTY), stepSize: i.stepSize },
        { filterType: 'MAX_NUM_ORDERS', limit: 200 },
        { filterType: 'MAX_NUM_ALGO_ORDERS', limit: 10 },
        { filterType: 'MIN_NOTIONAL', notional: i.minNotional },
        {
          filterType: 'PERCENT_PRICE',
          multiplierUp: PERCENT_PRICE.up.toFixed(4),
          multiplierDown: PERCENT_PRICE.down.toFixed(4),
          multiplierDecimal: '4',
        },
      ],
      orderTypes: [
        'LIMIT',
        'MARKET',
        'STOP',
        'STOP_MARKET',
        'TAKE_PROFIT',
        'TAKE_PROFIT_MARKET',
        'TRAILING_STOP_MARKET',
      ],
      timeInForce: ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'],
    })),
  };
}

/** GET /fapi/v1/klines: startTime/endTime inclusive, limit default 500, max 1500; the latest first when no startTime. */
export function klines(
  inst: FakeInstrument,
  q: URLSearchParams,
  t: number,
  seed: number,
  missing: Record<string, [number, number][]>,
  damaged: Record<string, number[]>,
) {
  const minutes = TIMEFRAME_MINUTES[q.get('interval') ?? ''];
  if (!minutes) throw new Error(`Invalid interval ${q.get('interval')}`);
  const step = minutes * MINUTE;
  const limit = Math.min(Number(q.get('limit') ?? 500), 1500);
  const lastOpen = Math.floor(t / step) * step;
  const end = Math.floor(Math.min(q.has('endTime') ? Number(q.get('endTime')) : lastOpen, lastOpen) / step) * step;
  const start = q.has('startTime') ? Math.ceil(Number(q.get('startTime')) / step) * step : end - (limit - 1) * step;
  const gaps = missing[inst.id] ?? [];
  const rows: unknown[][] = [];
  for (let open = start; open <= end && rows.length < limit; open += step) {
    if (gaps.some(([from, to]) => open >= from && open < to)) continue;
    const c = minutes === 1 ? candleAt(seed, inst, open) : aggregateCandle(seed, inst, open, minutes);
    const quoteVolume = (c.volume * (c.open + c.close)) / 2;
    rows.push([
      c.openTime,
      String(c.open),
      String(c.high),
      String(c.low),
      String(c.close),
      damaged[inst.id]?.includes(open) ? '' : String(c.volume),
      c.openTime + step - 1,
      quoteVolume.toFixed(4),
      100 + Math.floor(c.volume),
      (c.volume / 2).toFixed(3),
      (quoteVolume / 2).toFixed(4),
      '0',
    ]);
  }
  return rows;
}

/** GET /fapi/v1/depth: limit one of 5, 10, 20, 50, 100, 500, 1000 (this fake has 20 levels). */
export function depth(book: { bids: [number, number][]; asks: [number, number][] }, q: URLSearchParams, t: number) {
  const limit = Number(q.get('limit') ?? 500);
  if (![5, 10, 20, 50, 100, 500, 1000].includes(limit)) throw new Error(`Invalid limit ${limit}`);
  const side = (levels: [number, number][]) => levels.slice(0, limit).map(([p, q2]) => [String(p), String(q2)]);
  return {
    lastUpdateId: Math.floor(t / 100),
    E: t,
    T: t,
    bids: side(book.bids),
    asks: side(book.asks),
  };
}

function nextFunding(t: number): number {
  return (Math.floor(t / FUNDING_INTERVAL) + 1) * FUNDING_INTERVAL;
}

/** GET /fapi/v1/premiumIndex?symbol=: mark (the venue's: the book's mid), index, the rate to be settled next and when. */
function premiumIndex(inst: FakeInstrument, t: number, seed: number, mark: number) {
  const next = nextFunding(t);
  return {
    symbol: inst.id,
    markPrice: mark.toFixed(8),
    indexPrice: mark.toFixed(8),
    estimatedSettlePrice: mark.toFixed(8),
    lastFundingRate: fundingAt(seed, inst, next).toFixed(8),
    interestRate: '0.00010000',
    nextFundingTime: next,
    time: t,
  };
}

/** GET /fapi/v1/fundingRate: settlements in [startTime, endTime], oldest first, limit default 100, max 1000. */
function fundingHistory(inst: FakeInstrument, q: URLSearchParams, t: number, seed: number) {
  const limit = Math.min(Number(q.get('limit') ?? 100), 1000);
  const end = Math.min(q.has('endTime') ? Number(q.get('endTime')) : t, t);
  const first = q.has('startTime')
    ? Math.ceil(Number(q.get('startTime')) / FUNDING_INTERVAL) * FUNDING_INTERVAL
    : (Math.floor(end / FUNDING_INTERVAL) - limit + 1) * FUNDING_INTERVAL;
  const rows: unknown[] = [];
  for (let at = first; at <= end && rows.length < limit; at += FUNDING_INTERVAL) {
    rows.push({
      symbol: inst.id,
      fundingTime: at,
      fundingRate: fundingAt(seed, inst, at).toFixed(8),
      markPrice: priceAt(seed, inst, at).toFixed(8),
    });
  }
  return rows;
}

/** GET /fapi/v1/ticker/24hr?symbol= */
function ticker(inst: FakeInstrument, t: number, seed: number) {
  const minute = Math.floor(t / MINUTE) * MINUTE;
  const last = candleAt(seed, inst, minute).close;
  const open = priceAt(seed, inst, minute - 1440 * MINUTE);
  return {
    symbol: inst.id,
    priceChange: (last - open).toFixed(4),
    priceChangePercent: (((last - open) / open) * 100).toFixed(3),
    weightedAvgPrice: ((last + open) / 2).toFixed(4),
    lastPrice: String(last),
    lastQty: '0.010',
    openPrice: String(open),
    highPrice: String(Math.max(last, open)),
    lowPrice: String(Math.min(last, open)),
    volume: '1000.000',
    quoteVolume: (1000 * last).toFixed(4),
    openTime: t - 86_400_000,
    closeTime: t,
    firstId: 1,
    lastId: 1000,
    count: 1000,
  };
}

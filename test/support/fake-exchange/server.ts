/**
 * A local stand-in for Binance USD-M futures' public REST API (what ccxt's `binanceusdm` calls for
 * markets, OHLCV, the book, current and historical funding, and the 24 h ticker), on 127.0.0.1 with
 * a free port. Shapes follow Binance's documented responses (numbers as strings, klines as arrays).
 * Tests can make it answer 429 (with Retry-After and the weight header), go silent (accept the
 * connection and never answer) and come back, and leave out candles (an exchange maintenance gap).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  aggregateCandle,
  bookAt,
  candleAt,
  FAKE_INSTRUMENTS,
  FUNDING_INTERVAL,
  fundingAt,
  instrumentById,
  MINUTE,
  priceAt,
} from './market-data.js';
import type { FakeInstrument } from './market-data.js';

export interface FakeExchangeOptions {
  seed?: number;
  /** The exchange's "now" (candles after it do not exist yet); wall time by default. */
  now?: () => number;
  /** Candle open times never served, per Binance symbol: [from, to) ranges (maintenance). */
  missing?: Record<string, [number, number][]>;
  /** Candle open times served with an empty volume field, per Binance symbol (a damaged row). */
  damaged?: Record<string, number[]>;
}

export interface FakeExchange {
  url: string;
  seed: number;
  /** Every request path with its query, in order. */
  requests: string[];
  /** How many 429 answers were given so far. */
  rateLimited(): number;
  /** The next `count` requests get a 429 with Retry-After: `retryAfterSeconds`. */
  rateLimit(count: number, retryAfterSeconds?: number): void;
  /** Answer every request to this path (e.g. /fapi/v1/premiumIndex) with a 400 until called with null. */
  fail(pathname: string | null): void;
  /**
   * The next request to this path for this symbol is answered only when the returned function is
   * called (the answer is made on arrival): a reply that arrives as late as the test decides.
   */
  holdNext(pathname: string, symbol: string): () => void;
  /** Accept requests but never answer them, until resume(). */
  hang(): void;
  resume(): void;
  stop(): Promise<void>;
}

const TIMEFRAME_MINUTES: Record<string, number> = {
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

export async function startFakeExchange(options: FakeExchangeOptions = {}): Promise<FakeExchange> {
  const seed = options.seed ?? 1;
  const now = options.now ?? Date.now;
  const requests: string[] = [];
  let limited = 0;
  let limitedAnswers = 0;
  let retryAfter = 1;
  let silent = false;
  let failing: string | null = null;
  let hold: { pathname: string; symbol: string; held: Array<() => void> } | null = null;
  const hung = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (silent) {
      hung.add(res);
      res.on('close', () => hung.delete(res));
      return;
    }
    if (limited > 0) {
      limited--;
      limitedAnswers++;
      res.writeHead(429, {
        'content-type': 'application/json',
        'retry-after': String(retryAfter),
        'x-mbx-used-weight-1m': '2400',
      });
      res.end(JSON.stringify({ code: -1003, msg: 'Too many requests; current limit is 2400 requests per minute.' }));
      return;
    }
    if (failing !== null && new URL(req.url ?? '/', 'http://fake').pathname === failing) {
      reply(res, 400, { code: -1100, msg: 'Illegal characters found in a parameter.' });
      return;
    }
    const url = new URL(req.url ?? '/', 'http://fake');
    if (hold && url.pathname === hold.pathname && url.searchParams.get('symbol') === hold.symbol) {
      const held = hold.held;
      hold = null;
      const late = lateResponse(res);
      try {
        route(req, late);
      } catch (err) {
        reply(late, 400, { code: -1100, msg: (err as Error).message });
      }
      held.push(() => late.send());
      return;
    }
    try {
      route(req, res);
    } catch (err) {
      reply(res, 400, { code: -1100, msg: (err as Error).message });
    }
  });

  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const q = url.searchParams;
    const t = now();
    switch (url.pathname) {
      case '/fapi/v1/exchangeInfo':
        return reply(res, 200, exchangeInfo(t));
      case '/fapi/v1/time':
        return reply(res, 200, { serverTime: t });
      case '/fapi/v1/klines':
        return reply(res, 200, klines(instrument(q), q, t, seed, options.missing ?? {}, options.damaged ?? {}));
      case '/fapi/v1/depth':
        return reply(res, 200, depth(instrument(q), q, t, seed));
      case '/fapi/v1/premiumIndex':
        return reply(res, 200, premiumIndex(instrument(q), t, seed));
      case '/fapi/v1/fundingRate':
        return reply(res, 200, fundingHistory(instrument(q), q, t, seed));
      case '/fapi/v1/ticker/24hr':
        return reply(res, 200, ticker(instrument(q), t, seed));
      default:
        return reply(res, 404, { code: -5000, msg: `no route ${url.pathname}` });
    }
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seed,
    requests,
    rateLimited: () => limitedAnswers,
    rateLimit(count, retryAfterSeconds = 1) {
      limited = count;
      retryAfter = retryAfterSeconds;
    },
    fail(pathname) {
      failing = pathname;
    },
    holdNext(pathname, symbol) {
      const held: Array<() => void> = [];
      hold = { pathname, symbol, held };
      return () => {
        for (const send of held.splice(0)) send();
      };
    },
    hang() {
      silent = true;
    },
    resume() {
      silent = false;
    },
    async stop() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Holds what `reply` writes until `send()`: an answer made now, delivered late. */
function lateResponse(res: ServerResponse): ServerResponse & { send(): void } {
  let head: [number, Record<string, string>] = [200, {}];
  let body = '';
  const held = {
    writeHead(status: number, headers: Record<string, string>) {
      head = [status, headers];
      return held;
    },
    end(chunk: string) {
      body = chunk;
      return held;
    },
    send() {
      if (res.destroyed) return;
      res.writeHead(...head);
      res.end(body);
    },
  };
  return held as unknown as ServerResponse & { send(): void };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'x-mbx-used-weight-1m': '10' });
  res.end(JSON.stringify(body));
}

function instrument(q: URLSearchParams): FakeInstrument {
  const id = q.get('symbol');
  const inst = id ? instrumentById(id) : undefined;
  if (!inst) throw new Error(`Invalid symbol ${id}`);
  return inst;
}

function exchangeInfo(t: number) {
  return {
    timezone: 'UTC',
    serverTime: t,
    futuresType: 'U_MARGINED',
    rateLimits: [
      { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400 },
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
        { filterType: 'LOT_SIZE', minQty: i.stepSize, maxQty: '1000', stepSize: i.stepSize },
        { filterType: 'MARKET_LOT_SIZE', minQty: i.stepSize, maxQty: '120', stepSize: i.stepSize },
        { filterType: 'MAX_NUM_ORDERS', limit: 200 },
        { filterType: 'MAX_NUM_ALGO_ORDERS', limit: 10 },
        { filterType: 'MIN_NOTIONAL', notional: i.minNotional },
        { filterType: 'PERCENT_PRICE', multiplierUp: '1.0500', multiplierDown: '0.9500', multiplierDecimal: '4' },
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
function klines(
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
function depth(inst: FakeInstrument, q: URLSearchParams, t: number, seed: number) {
  const limit = Number(q.get('limit') ?? 500);
  if (![5, 10, 20, 50, 100, 500, 1000].includes(limit)) throw new Error(`Invalid limit ${limit}`);
  const book = bookAt(seed, inst, t);
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

/** GET /fapi/v1/premiumIndex?symbol=: mark, index, the rate to be settled next and when. */
function premiumIndex(inst: FakeInstrument, t: number, seed: number) {
  const mark = priceAt(seed, inst, Math.floor(t / MINUTE) * MINUTE + MINUTE);
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

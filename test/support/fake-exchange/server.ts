/**
 * A local stand-in for Binance USD-M futures' REST API, on 127.0.0.1 with a free port. Public:
 * what ccxt's `binanceusdm` calls for markets, OHLCV, the book, current and historical funding and
 * the 24 h ticker, in Binance's documented shapes (numbers as strings, klines as arrays). Signed:
 * the trading endpoints (private-api.ts) with Binance's key and HMAC signature checks
 * (signed-request.ts), over the fake's own orders, matching and account (venue.ts).
 *
 * Every request is weighed as Binance weighs it (request-weight.ts): `X-MBX-USED-WEIGHT-1M` on every
 * answer, 429 past the minute's limit, 418 for a client that keeps coming during the 429.
 *
 * Tests can inject faults (faults.ts: 429, 418, 5xx, answers never sent, unknown-order lookups,
 * silence), leave out candles (an exchange maintenance gap), hold one answer back, and act on the
 * venue behind the system's back (venue.ts: prices, foreign orders, positions, partial fills).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { BinanceError, errors } from './binance-errors.js';
import { Faults } from './faults.js';
import type { Reply } from './faults.js';
import { DEFAULT_FEES } from './ledger.js';
import type { FeeRates } from './ledger.js';
import {
  aggregateCandle,
  candleAt,
  FAKE_INSTRUMENTS,
  FUNDING_INTERVAL,
  fundingAt,
  instrumentById,
  MINUTE,
  priceAt,
} from './market-data.js';
import type { FakeInstrument } from './market-data.js';
import { LIMIT_MAX_QTY, MARKET_MAX_QTY, PERCENT_PRICE } from './order-rules.js';
import { privateRoute } from './private-api.js';
import { requestWeight, WeightMeter } from './request-weight.js';
import { verifySigned } from './signed-request.js';
import { FakeUserStream } from './user-stream.js';
import type { Credentials } from './signed-request.js';
import { Venue } from './venue.js';

/** The fake's API key and secret (64 alphanumerics, like Binance's). Test values, nothing real. */
export const FAKE_CREDENTIALS: Credentials = {
  apiKey: 'fakeKey0000000000000000000000000000000000000000000000000000000001',
  secret: 'fakeSecret000000000000000000000000000000000000000000000000000001',
};

export interface FakeExchangeOptions {
  seed?: number;
  /** The exchange's "now" (candles after it do not exist yet; orders, trades and countdowns); wall time by default. */
  now?: () => number;
  /** Candle open times never served, per Binance symbol: [from, to) ranges (maintenance). */
  missing?: Record<string, [number, number][]>;
  /** Candle open times served with an empty volume field, per Binance symbol (a damaged row). */
  damaged?: Record<string, number[]>;
  /** The key and secret the signed endpoints accept; FAKE_CREDENTIALS by default. */
  credentials?: Credentials;
  /** The account's USDT wallet at start; 10 000 by default. */
  deposit?: number;
  fees?: FeeRates;
  /** The REQUEST_WEIGHT limit per minute (exchangeInfo `rateLimits`); Binance's 2 400 by default. */
  weightLimit?: number;
}

/** One request as it arrived. */
export interface FakeCall {
  method: string;
  /** Path and query. */
  url: string;
  /** The host the client meant (X-Forwarded-Host, set by pointCcxtAt), or null. */
  host: string | null;
  /** When it arrived (performance.now() of the fake's process). */
  at: number;
}

export interface FakeExchange {
  url: string;
  seed: number;
  /** Every request path with its query, in order. */
  requests: string[];
  /** Every request with its method and intended host, in order. */
  calls: FakeCall[];
  /** The trading side: orders, matching, the account, the countdown, and a test's hand on them. */
  readonly venue: Venue;
  /** The faults a test switches on. */
  readonly faults: Faults;
  /** The user-data stream (listen key and WebSocket): its events, and its faults (drop, expireKey). */
  readonly userStream: FakeUserStream;
  /** The request weight counted (request-weight.ts): this minute's, since the start, and 429s for it. */
  readonly weight: { used(): number; total(): number; refused(): number };
  /**
   * A fresh exchange on the same port: a new account, no orders, no faults, no recorded calls —
   * so a test file can keep one warm ccxt client (its construction alone costs tens of ms).
   */
  reset(): void;
  /** How many 429 answers were given so far. */
  rateLimited(): number;
  /** The next `count` requests get a 429 with Retry-After: `retryAfterSeconds`. */
  rateLimit(count: number, retryAfterSeconds?: number): void;
  /** Answer every request to this path (e.g. /fapi/v1/premiumIndex) with a 400 until called with null. */
  fail(pathname: string | null): void;
  /**
   * The next request to this path for this symbol (null: one without a symbol) is answered only when
   * the returned function is called: a reply that arrives as late as the test decides. The answer is
   * made on arrival, or with `made: 'on release'` when released, so what the test does to the
   * exchange meanwhile is in it (a read that straddles a fill).
   */
  holdNext(pathname: string, symbol: string | null, made?: 'on arrival' | 'on release'): () => void;
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

/** How often the fake applies its clock on its own (Binance checks countdowns about every 10 ms). */
const SETTLE_EVERY_MS = 10;

export async function startFakeExchange(options: FakeExchangeOptions = {}): Promise<FakeExchange> {
  const seed = options.seed ?? 1;
  const now = options.now ?? Date.now;
  const credentials = options.credentials ?? FAKE_CREDENTIALS;
  const newVenue = () =>
    new Venue({ seed, now, deposit: options.deposit ?? 10_000, fees: options.fees ?? DEFAULT_FEES });
  let venue = newVenue();
  let faults = new Faults();
  const newMeter = () => new WeightMeter(options.weightLimit);
  let meter = newMeter();
  const requests: string[] = [];
  const calls: FakeCall[] = [];
  let failing: string | null = null;
  let hold: {
    pathname: string;
    symbol: string | null;
    made: 'on arrival' | 'on release';
    held: Array<() => void>;
  } | null = null;
  const hung = new Set<ServerResponse>();
  const userStream = new FakeUserStream(() => venue, now);

  const keepOpen = (res: ServerResponse) => {
    hung.add(res);
    res.on('close', () => hung.delete(res));
  };

  const held = (url: URL, made: 'on arrival' | 'on release'): Array<() => void> | null => {
    if (!hold || hold.made !== made || url.pathname !== hold.pathname) return null;
    if (url.searchParams.get('symbol') !== hold.symbol) return null;
    const list = hold.held;
    hold = null;
    return list;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push(req.url ?? '');
    calls.push({ method, url: req.url ?? '', host: header(req, 'x-forwarded-host') ?? null, at: performance.now() });
    if (faults.silent) return keepOpen(res);
    const later = held(url, 'on release');
    if (later) {
      later.push(() => answer(req, res, body, method, url));
      return;
    }
    const latency = faults.latency();
    if (latency > 0) {
      setTimeout(() => answer(req, res, body, method, url), latency);
      return;
    }
    answer(req, res, body, method, url);
  };

  const answer = (req: IncomingMessage, res: ServerResponse, body: string, method: string, url: URL): void => {
    venue.settle();
    const signed = url.searchParams.has('signature') || /(^|&)signature=/.test(body);
    const metered = meter.charge(now(), requestWeight(method, url.pathname, url.searchParams));
    if (metered.verdict === 'ban') faults.banFor(metered.seconds);
    if (metered.verdict === '429') return send(res, tooMuchWeight(meter.limit, metered.used, metered.retryAfterS));
    const early = faults.before(now(), method, url.pathname, signed);
    if (early) return send(res, early);
    if (failing !== null && url.pathname === failing) {
      return send(res, { status: 400, body: { code: -1100, msg: 'Illegal characters found in a parameter.' } });
    }
    let reply: Reply;
    try {
      reply = { status: 200, body: route(req, url, body) };
      userStream.sync();
    } catch (err) {
      reply =
        err instanceof BinanceError
          ? { status: err.status, body: err.body() }
          : { status: 400, body: { code: -1100, msg: (err as Error).message } };
    }
    const late = faults.after(method, url.pathname);
    if (late === 'never') return keepOpen(res);
    if (late) reply = late;
    const later = held(url, 'on arrival');
    if (later) {
      later.push(() => send(res, reply));
      return;
    }
    send(res, reply);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });

  /** Every answer tells the minute's weight, as Binance's do. */
  const send = (res: ServerResponse, reply: Reply): void =>
    sendReply(res, { ...reply, headers: { 'x-mbx-used-weight-1m': String(meter.usedAt(now())), ...reply.headers } });

  const route = (req: IncomingMessage, url: URL, body: string): unknown => {
    if (url.pathname === '/fapi/v1/listenKey') {
      // USER_STREAM security: the API key, no signature.
      if (header(req, 'x-mbx-apikey') !== credentials.apiKey) throw errors.rejectedApiKey();
      return userStream.listenKey(req.method ?? 'POST');
    }
    const signed = privateRoute(req.method ?? 'GET', url.pathname);
    if (signed) {
      const query = url.search.startsWith('?') ? url.search.slice(1) : url.search;
      const apiKeyHeader = header(req, 'x-mbx-apikey');
      const params = verifySigned({ query, body, apiKeyHeader }, credentials, now());
      return signed(params, venue, faults);
    }
    const q = url.searchParams;
    const t = now();
    switch (url.pathname) {
      case '/fapi/v1/exchangeInfo':
        return exchangeInfo(t, meter.limit);
      case '/fapi/v1/time':
        return { serverTime: t };
      case '/fapi/v1/klines':
        return klines(instrument(q), q, t, seed, options.missing ?? {}, options.damaged ?? {});
      case '/fapi/v1/depth':
        return depth(venue.book(instrument(q)), q, t);
      case '/fapi/v1/premiumIndex':
        return premiumIndex(instrument(q), t, seed, venue.mark(instrument(q)));
      case '/fapi/v1/fundingRate':
        return fundingHistory(instrument(q), q, t, seed);
      case '/fapi/v1/ticker/24hr':
        return ticker(instrument(q), t, seed);
      default:
        throw new BinanceError(404, -5000, `no route ${url.pathname}`);
    }
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => userStream.upgrade(req, socket, head));
  const clock = setInterval(() => {
    venue.settle();
    userStream.sync();
  }, SETTLE_EVERY_MS);
  clock.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seed,
    requests,
    calls,
    get venue() {
      return venue;
    },
    get faults() {
      return faults;
    },
    userStream,
    weight: {
      used: () => meter.usedAt(now()),
      total: () => meter.total,
      refused: () => meter.refused,
    },
    reset() {
      for (const res of hung) res.destroy();
      venue = newVenue();
      userStream.reset();
      faults = new Faults();
      meter = newMeter();
      requests.length = 0;
      calls.length = 0;
      failing = null;
      hold = null;
    },
    rateLimited: () => faults.rateLimited(),
    rateLimit: (count, retryAfterSeconds) => faults.rateLimit(count, retryAfterSeconds),
    fail(pathname) {
      failing = pathname;
    },
    holdNext(pathname, symbol, made = 'on arrival') {
      const waiting: Array<() => void> = [];
      hold = { pathname, symbol, made, held: waiting };
      return () => {
        for (const sendHeld of waiting.splice(0)) sendHeld();
      };
    },
    hang() {
      faults.silent = true;
    },
    resume() {
      faults.silent = false;
    },
    async stop() {
      clearInterval(clock);
      userStream.close();
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendReply(res: ServerResponse, reply: Reply): void {
  if (res.destroyed) return;
  res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  res.end(JSON.stringify(reply.body));
}

function instrument(q: URLSearchParams): FakeInstrument {
  const id = q.get('symbol');
  const inst = id ? instrumentById(id) : undefined;
  if (!inst) throw new Error(`Invalid symbol ${id}`);
  return inst;
}

/** Binance's 429 for request weight (-1003), with how long to wait: the minute's end. */
function tooMuchWeight(limit: number, used: number, retryAfterS: number): Reply {
  return {
    status: 429,
    headers: { 'retry-after': String(retryAfterS), 'x-mbx-used-weight-1m': String(used) },
    body: {
      code: -1003,
      msg: `Too many requests; current limit of IP(127.0.0.1) is ${limit} requests per minute. Please use the websocket for live updates to avoid polling the API.`,
    },
  };
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
function depth(book: { bids: [number, number][]; asks: [number, number][] }, q: URLSearchParams, t: number) {
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

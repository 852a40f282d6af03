/**
 * A local stand-in for an exchange's REST API, on 127.0.0.1 with a free port: the transport and a
 * test's hand on it (faults, held answers, silence, the call log) over the exchange-neutral engine
 * (venue.ts: orders, matching, the account). What it speaks — paths, signatures, shapes, error codes —
 * is a dialect (dialect.ts): Binance USDⓈ-M by default (dialects/binanceusdm/), Bybit v5
 * (dialects/bybit/), OKX v5 (dialects/okx/).
 *
 * With a dialect that weighs requests (Binance), every request is weighed as Binance weighs it
 * (request-weight.ts): `X-MBX-USED-WEIGHT-1M` on every answer, 429 past the minute's limit, 418 for
 * a client that keeps coming during the 429.
 *
 * Tests can inject faults (faults.ts: 429, 418, 5xx, answers never sent, unknown-order lookups,
 * silence — answered in the dialect's words, fault-replies.ts), leave out candles (an exchange maintenance gap), hold one
 * answer back, and act on the venue behind the system's back (venue.ts: prices, foreign orders,
 * positions, partial fills).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Dialect, DialectContext, DialectSocket } from './dialect.js';
import { header } from './dialect.js';
import { BINANCE_USDM_DIALECT } from './dialects/binanceusdm/index.js';
import { Faults } from './faults.js';
import type { Reply } from './faults.js';
import { DEFAULT_FEES } from './ledger.js';
import type { FeeRates } from './ledger.js';
import { requestWeight, WeightMeter } from './request-weight.js';
import type { Credentials } from './signed-request.js';
import { FakeUserStream } from './user-stream.js';
import { Venue } from './venue.js';

/** The fake's API key and secret (64 alphanumerics, like Binance's). Test values, nothing real. */
export const FAKE_CREDENTIALS: Credentials = {
  apiKey: 'fakeKey0000000000000000000000000000000000000000000000000000000001',
  secret: 'fakeSecret000000000000000000000000000000000000000000000000000001',
  passphrase: 'fakePassphrase1',
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
  /** The exchange the fake speaks (dialect.ts); Binance USDⓈ-M by default. */
  dialect?: Dialect;
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
  /** The dialect's own private WebSocket (Bybit's /v5/private and its DCP), or null when it has none. */
  readonly privateSocket: DialectSocket | null;
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

/** How often the fake applies its clock on its own (Binance checks countdowns about every 10 ms). */
const SETTLE_EVERY_MS = 10;

export async function startFakeExchange(options: FakeExchangeOptions = {}): Promise<FakeExchange> {
  const seed = options.seed ?? 1;
  const now = options.now ?? Date.now;
  const credentials = options.credentials ?? FAKE_CREDENTIALS;
  const dialect = options.dialect ?? BINANCE_USDM_DIALECT;
  const newVenue = () =>
    new Venue({ seed, now, deposit: options.deposit ?? 10_000, fees: options.fees ?? DEFAULT_FEES });
  let venue = newVenue();
  let faults = new Faults(dialect.faultReplies);
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
  const privateSocket = dialect.privateSocket?.({ venue: () => venue, now, credentials }) ?? null;
  const ctx: DialectContext = {
    userStream,
    privateSocket,
    get venue() {
      return venue;
    },
    get faults() {
      return faults;
    },
    now,
    seed,
    credentials,
    missing: options.missing ?? {},
    damaged: options.damaged ?? {},
    get weightLimit() {
      return meter.limit;
    },
  };

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
    const signed = dialect.isSigned(req, url, body);
    if (dialect.weighsRequests) {
      const metered = meter.charge(now(), requestWeight(method, url.pathname, url.searchParams));
      if (metered.verdict === 'ban') faults.banFor(metered.seconds);
      if (metered.verdict === '429') return send(res, tooMuchWeight(meter.limit, metered.used, metered.retryAfterS));
    }
    const early = faults.before(now(), method, url.pathname, signed);
    if (early) return send(res, early);
    if (failing !== null && url.pathname === failing) return send(res, dialect.failedReply(now()));
    let reply: Reply;
    try {
      reply = { status: 200, body: dialect.route(ctx, req, url, body) };
      userStream.sync();
      privateSocket?.sync();
    } catch (err) {
      reply = dialect.errorReply(err, now());
    }
    const late = faults.after(method, url.pathname, now());
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
    sendReply(
      res,
      dialect.weighsRequests
        ? { ...reply, headers: { 'x-mbx-used-weight-1m': String(meter.usedAt(now())), ...reply.headers } }
        : reply,
    );

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!privateSocket?.upgrade(req, socket, head)) userStream.upgrade(req, socket, head);
  });
  const clock = setInterval(() => {
    // The socket first: a disconnect window that ran out arms the cancel the settle then applies.
    privateSocket?.sync();
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
    privateSocket,
    weight: {
      used: () => meter.usedAt(now()),
      total: () => meter.total,
      refused: () => meter.refused,
    },
    reset() {
      for (const res of hung) res.destroy();
      venue = newVenue();
      userStream.reset();
      privateSocket?.reset();
      faults = new Faults(dialect.faultReplies);
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
      privateSocket?.close();
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A string body is sent as it is (a gateway's plain-text refusal); anything else as JSON. */
function sendReply(res: ServerResponse, reply: Reply): void {
  if (res.destroyed) return;
  const text = typeof reply.body === 'string';
  res.writeHead(reply.status, { 'content-type': text ? 'text/plain' : 'application/json', ...reply.headers });
  res.end(text ? reply.body : JSON.stringify(reply.body));
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

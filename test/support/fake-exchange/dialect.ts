/**
 * What makes the fake exchange speak one exchange's API (issue 33, item 4): the server (server.ts)
 * owns the transport and the test's hand (faults, held answers, silence, the call log) and the
 * engine (venue.ts: orders, matching, the account, the clock); a dialect owns the request paths,
 * signature check, response shapes and error codes of one exchange (dialects/<ccxt id>/).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LiveVenueContractRun } from '../../contracts/live-venue-runner.js';
import type { FaultReplies } from './fault-replies.js';
import type { Faults, Reply } from './faults.js';
import type { Credentials } from './signed-request.js';
import type { FakeUserStream } from './user-stream.js';
import type { Venue } from './venue.js';

/** What a dialect's routes may read: the engine and the fake's settings. */
export interface DialectContext {
  readonly venue: Venue;
  readonly faults: Faults;
  now(): number;
  seed: number;
  credentials: Credentials;
  /** Candle open times never served / served damaged, per market id (the server's options). */
  missing: Record<string, [number, number][]>;
  damaged: Record<string, number[]>;
  /** The request-weight limit per minute the exchange publishes (Binance's exchangeInfo). */
  weightLimit: number;
  /** Binance's user-data stream (its listen key is a REST route of the dialect; the socket is the server's). */
  readonly userStream: FakeUserStream;
  /** The dialect's own private WebSocket (`Dialect.privateSocket`), or null when it has none. */
  readonly privateSocket: DialectSocket | null;
}

/**
 * A private WebSocket a dialect serves itself (Bybit's /v5/private), on the fake's HTTP server: the
 * server hands it every upgrade first and calls `sync` after each request and on its clock.
 */
export interface DialectSocket {
  /** Takes the upgrade when the path is its own (true), else leaves it to the next (false). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Pushes what changed; applies what the clock implies (a disconnect window run out). */
  sync(): void;
  /**
   * The exchange's cancel-on-disconnect window, ms (Bybit's DCP, POST
   * /v5/order/disconnected-cancel-all): once every connection subscribed to it is gone that long,
   * the account's open orders are cancelled.
   */
  setDisconnectWindow(ms: number): void;
  /** How many open, authenticated connections are subscribed to `topic`. */
  subscribed(topic: string): number;
  /** A fault: every connection closes (the client sees a dropped stream). */
  drop(): void;
  /** A fault: new connections are refused (HTTP 503 to the upgrade) until called with false. */
  refuse(refusing: boolean): void;
  /** A fresh exchange: no connection, no window, nothing pushed. */
  reset(): void;
  close(): void;
}

/** What a dialect's socket is made from: the engine (replaced by a reset), the clock and the keys. */
export interface DialectSocketDeps {
  venue(): Venue;
  now(): number;
  credentials: Credentials;
}

export interface Dialect {
  /** ccxt's id of the exchange this dialect speaks. */
  id: string;
  /** Whether this request is signed (faults aimed at signed or public requests only). */
  isSigned(req: IncomingMessage, url: URL, body: string): boolean;
  /** The body of a successful answer; throws for an error answer. */
  route(ctx: DialectContext, req: IncomingMessage, url: URL, body: string): unknown;
  /** The reply for anything `route` (or the engine under it) threw; `now` is the fake's clock. */
  errorReply(err: unknown, now: number): Reply;
  /** The reply for a path a test failed with `fail(path)`. */
  failedReply(now: number): Reply;
  /** How the faults a test switches on are answered in this exchange's words; Binance's when absent. */
  faultReplies?: FaultReplies;
  /** Whether requests are weighed and refused as Binance weighs them (request-weight.ts). */
  weighsRequests: boolean;
  /**
   * What the Venue contract expects of the live venue on this exchange (its capabilities, its refusal
   * codes, its order path): test/contracts/live-venue.contract.test.ts runs it for every dialect in
   * the registry, so a new exchange's contract run is part of its dialect.
   */
  venueContract: Omit<LiveVenueContractRun, 'dialect'>;
  /** The dialect's own private WebSocket (Bybit's), made once per fake exchange; absent: none. */
  privateSocket?(deps: DialectSocketDeps): DialectSocket;
}

/** A header's first value. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

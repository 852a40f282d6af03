/**
 * What makes the fake exchange speak one exchange's API (issue 33, item 4): the server (server.ts)
 * owns the transport and the test's hand (faults, held answers, silence, the call log) and the
 * engine (venue.ts: orders, matching, the account, the clock); a dialect owns the request paths,
 * signature check, response shapes and error codes of one exchange (dialects/<ccxt id>/).
 */
import type { IncomingMessage } from 'node:http';
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
}

/** A header's first value. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

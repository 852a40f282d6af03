/**
 * How the fake answers the faults a test switches on (faults.ts), in the words of the exchange it
 * speaks: a dialect gives its own (dialect.ts `faultReplies`), Binance USDⓈ-M's are the default —
 * so a fault on the Bybit fake is answered as Bybit would (HTTP 200 retCode 10006, a 403 ban), and
 * the client is tested against what it will really be told.
 */
import { errors } from './binance-errors.js';
import type { Reply } from './faults.js';

export interface FaultReplies {
  /** Too many requests; come back in `retryAfterS` (`now`: the fake's clock, epoch ms). */
  rateLimited(retryAfterS: number, now: number): Reply;
  /** The IP banned until `until` (epoch ms, the fake's clock), `retryAfterS` from now. */
  banned(until: number, retryAfterS: number, now: number): Reply;
  /** A server error with HTTP `status`, the request refused before anything was done. */
  serverError(status: number, now: number): Reply;
  /** A server error with HTTP `status` after the request was carried out: its outcome unknown to the caller. */
  unknownOutcome(status: number, now: number): Reply;
}

/** Binance's: 429 and 418 with Retry-After and -1003, 5xx with -1001 (not processed) or -1007 (unknown). */
export const BINANCE_FAULT_REPLIES: FaultReplies = {
  rateLimited: (retryAfterS) => ({
    status: 429,
    // The minute's weight is the meter's (server.ts adds it): an injected 429 does not spend it.
    headers: { 'retry-after': String(retryAfterS) },
    body: { code: -1003, msg: 'Too many requests; current limit is 2400 requests per minute.' },
  }),
  banned: (until, retryAfterS) => ({
    status: 418,
    headers: { 'retry-after': String(retryAfterS) },
    body: {
      code: -1003,
      msg: `Way too many requests; IP banned until ${until}. Please use the websocket for live updates to avoid bans.`,
    },
  }),
  serverError: (status) => ({ status, body: errors.internal().body() }),
  unknownOutcome: (status) => ({
    status,
    body: {
      code: -1007,
      msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
    },
  }),
};

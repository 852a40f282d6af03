/**
 * Binance USDⓈ-M error codes an order request can be answered with, and what each means for the
 * order (docs/operate/live-trading.md, "Refusals by code"). Built from Binance's published error list
 * (developers.binance.com …/usds-margined-futures/error-code) and ccxt's binance `exceptions` map.
 * ccxt's class alone cannot decide: it files real refusals (-2027, -2028, -4061, -4131) under
 * OperationRejected, a plain ExchangeError that also covers codes it does not know, so the order was
 * looked up for half a minute as if its outcome were unknown. The exchange's code decides first;
 * a code not listed here is judged by ccxt's class (./exchange-errors.ts).
 *
 * - `rejected`: the exchange looked at the order and refused it; nothing was placed, the order
 *   manager is released at once with the code in the reason.
 * - `retryable`: refused before it was processed (overloaded); nothing was placed, the same order
 *   may succeed later (the caller decides when).
 * - `rate_limited`: a request-rate refusal (the request gate also sees the 429/418 itself).
 * - `unknown`: the exchange may have carried it out: looked up by client order id, never resent blindly.
 * - `clock`, `duplicate`: as in ./exchange-errors.ts.
 */
import type { FailureKind } from './exchange-errors.js';

type CodeKind = Exclude<FailureKind, 'auth'>;

const REFUSAL_CODES: ReadonlyMap<number, CodeKind> = new Map<number, CodeKind>([
  // ---- 10xx: the server, the request rate, the clock ----
  [-1000, 'unknown'], // UNKNOWN: "An unknown error occurred while processing the request."
  // DISCONNECTED (503) "Internal error; unable to process your request. Please try again.": Binance
  // documents it as not processed, so it is retryable; but a 503 comes from a gateway in front of the
  // matching engine, and a look-up by client id (a second or so) settles it without ever risking a
  // second order, so it stays unknown as it always was.
  [-1001, 'unknown'],
  [-1003, 'rate_limited'], // TOO_MANY_REQUESTS: weight over the limit (429) or the IP banned (418).
  [-1006, 'unknown'], // UNEXPECTED_RESP: "Execution status unknown."
  [-1007, 'unknown'], // TIMEOUT: "Send status unknown; execution status unknown."
  [-1008, 'retryable'], // SERVER_BUSY / request throttled by system protection: refused unprocessed.
  [-1015, 'rate_limited'], // TOO_MANY_ORDERS: the account's order-rate limit.
  [-1021, 'clock'], // INVALID_TIMESTAMP: outside recvWindow, refused unprocessed.
  // ---- 11xx: the request itself is malformed: refused ----
  [-1102, 'rejected'], // MANDATORY_PARAM_EMPTY_OR_MALFORMED
  [-1106, 'rejected'], // PARAM_NOT_REQUIRED
  [-1111, 'rejected'], // BAD_PRECISION
  [-1116, 'rejected'], // INVALID_ORDER_TYPE
  [-1121, 'rejected'], // BAD_SYMBOL
  // ---- 20xx: processing ----
  [-2010, 'rejected'], // NEW_ORDER_REJECTED
  [-2018, 'rejected'], // BALANCE_NOT_SUFFICIENT
  [-2019, 'rejected'], // MARGIN_NOT_SUFFICIEN(T)
  [-2020, 'rejected'], // UNABLE_TO_FILL: nothing in the book to fill it.
  [-2021, 'rejected'], // ORDER_WOULD_IMMEDIATELY_TRIGGER
  [-2022, 'rejected'], // REDUCE_ONLY_REJECT: nothing (or less) to reduce.
  [-2023, 'rejected'], // USER_IN_LIQUIDATION
  [-2024, 'rejected'], // POSITION_NOT_SUFFICIENT
  [-2025, 'rejected'], // MAX_OPEN_ORDER_EXCEEDED
  [-2026, 'rejected'], // REDUCE_ONLY_ORDER_TYPE_NOT_SUPPORTED
  [-2027, 'rejected'], // MAX_LEVERAGE_RATIO: the position would exceed the bracket at this leverage.
  [-2028, 'rejected'], // MIN_LEVERAGE_RATIO: leverage too small for the margin balance.
  // ---- 40xx: filters and account settings ----
  [-4003, 'rejected'], // QTY_LESS_THAN_ZERO
  [-4004, 'rejected'], // QTY_LESS_THAN_MIN_QTY
  [-4005, 'rejected'], // QTY_GREATER_THAN_MAX_QTY (LOT_SIZE / MARKET_LOT_SIZE maxQty)
  [-4013, 'rejected'], // PRICE_LESS_THAN_MIN_PRICE
  [-4014, 'rejected'], // PRICE_NOT_INCREASED_BY_TICK_SIZE
  [-4015, 'rejected'], // INVALID_CL_ORD_ID_LEN
  [-4016, 'rejected'], // PRICE_HIGHTER_THAN_MULTIPLIER_UP (PERCENT_PRICE)
  [-4023, 'rejected'], // QTY_NOT_INCREASED_BY_STEP_SIZE
  [-4024, 'rejected'], // PRICE_LOWER_THAN_MULTIPLIER_DOWN (PERCENT_PRICE)
  [-4061, 'rejected'], // INVALID_POSITION_SIDE: hedge-mode account, one-way order (or the reverse).
  // ccxt calls these PermissionDenied (an AuthenticationError): but the keys work, only opening is
  // barred and reduce-only orders still go, so they refuse this order rather than stop the venue.
  [-4087, 'rejected'], // REDUCE_ONLY_ORDER_PERMISSION: the account may only reduce.
  [-4088, 'rejected'], // NO_PLACE_ORDER_PERMISSION: the account may not place orders now.
  [-4116, 'duplicate'], // DUPLICATED_CLIENT_ORDER_ID: an open order already has this id.
  [-4118, 'rejected'], // REDUCE_ONLY_MARGIN_CHECK_FAILED
  [-4131, 'rejected'], // MARKET_ORDER_REJECT: the counterparty's best price is outside PERCENT_PRICE.
  [-4140, 'rejected'], // INVALID_SYMBOL_STATUS: the symbol cannot open positions now.
  [-4141, 'rejected'], // SYMBOL_ALREADY_CLOSED
  [-4164, 'rejected'], // MIN_NOTIONAL
  [-4400, 'rejected'], // Futures quantitative rules: only reduce-only orders allowed for a while.
  [-4401, 'rejected'], // Compliance: only reduce-only orders allowed.
  // ---- 50xx: execution ----
  [-5021, 'rejected'], // FOK_ORDER_REJECT
  [-5022, 'rejected'], // GTX_ORDER_REJECT: a post-only order would have taken.
  [-5028, 'rejected'], // ME_RECVWINDOW_REJECT: refused by the matching engine's recvWindow.
]);

/** What the exchange's code in `err` says about the order, or null when it has no code this table knows. */
export function kindByCode(err: unknown): CodeKind | null {
  const code = exchangeCode(err);
  return code === null ? null : (REFUSAL_CODES.get(code) ?? null);
}

/**
 * Whether the exchange says it did not process the request: -1001 "Internal error; unable to process
 * your request" is documented by Binance as a failed operation (unlike -1006/-1007, "execution status
 * unknown"). The table above still keeps it `unknown` for an order that could add exposure; the venue
 * trusts it for a reduce-only close, which sent twice could never pass flat (./live-venue.ts).
 */
export function saysNotProcessed(err: unknown): boolean {
  return exchangeCode(err) === -1001;
}

/**
 * The exchange's code from a ccxt error, or null. ccxt's message is `<exchange id> <body>`, the body
 * Binance's `{"code":-2027,"msg":"..."}`; only a code in that JSON counts, never digits elsewhere.
 */
function exchangeCode(err: unknown): number | null {
  if (!(err instanceof Error)) return null;
  const body = /\{.*\}/s.exec(err.message)?.[0];
  if (!body) return null;
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed.code === 'number' ? parsed.code : null;
  } catch {
    return null;
  }
}

/**
 * What a failed exchange call means for an order: by the exchange's own code when ./refusal-codes.ts
 * knows it (docs/operate/live-trading.md, "Refusals by code"), else by ccxt's error classes
 * (docs/operate/live-trading.md, "Errors as ccxt reports them"):
 *  - `rate_limited`: 429/418 (DDoSProtection, RateLimitExceeded) — refused before it was looked at;
 *    safe to send again after Retry-After; or held back by ./request-gate.ts, never sent.
 *  - `retryable`: refused unprocessed because the exchange is overloaded: never placed.
 *  - `clock`: InvalidNonce — our timestamp was outside recvWindow, refused unprocessed.
 *  - `unknown`: a timeout, a dropped connection, a 5xx (RequestTimeout, NetworkError,
 *    ExchangeNotAvailable, OperationFailed) — the request may have been carried out: the order is
 *    looked up by client order id, never sent again blindly.
 *  - `duplicate`: the exchange already has an open order with this client id.
 *  - `auth`: keys refused or lacking permission — nothing will work until an operator acts.
 *  - `rejected`: the exchange looked at the order and refused it (InvalidOrder: min notional,
 *    reduce-only, post-only would cross; InsufficientFunds: margin; BadRequest, BadSymbol). Anything
 *    else is `unknown`: looked up, never assumed not placed.
 * ccxt is loaded lazily by the caller, so the classes come in as `errors` (the ccxt module).
 */
import { kindByCode, saysDuplicate } from './refusal-codes.js';
import { RequestWithheldError } from './request-gate.js';

import { bodyIn } from '../exchanges/error-body.js';
import type { FailureKind } from '../exchanges/profile.js';
import { errorFieldsFor, profileOfError } from '../exchanges/registry.js';
export type { FailureKind };

type ErrorClass = abstract new (...args: never[]) => Error;

/** The ccxt error classes the judgement needs (the ccxt module has them all). */
export interface CcxtErrorClasses {
  NetworkError: ErrorClass;
  DDoSProtection: ErrorClass;
  RateLimitExceeded: ErrorClass;
  InvalidNonce: ErrorClass;
  OperationFailed: ErrorClass;
  DuplicateOrderId: ErrorClass;
  AuthenticationError: ErrorClass;
  OrderNotFound: ErrorClass;
  InvalidOrder: ErrorClass;
  InsufficientFunds: ErrorClass;
  BadRequest: ErrorClass;
  BadSymbol: ErrorClass;
}

export function failureKind(err: unknown, errors: CcxtErrorClasses): FailureKind {
  // Held back by the request gate while the exchange asked to wait: never sent.
  if (err instanceof RequestWithheldError) return 'rate_limited';
  // The exchange's code first: ccxt files several plain refusals under classes that read as unknown.
  const byCode = kindByCode(err);
  if (byCode) return byCode;
  if (err instanceof errors.DDoSProtection || err instanceof errors.RateLimitExceeded) return 'rate_limited';
  if (err instanceof errors.InvalidNonce) return 'clock';
  if (err instanceof errors.OperationFailed) return 'unknown';
  if (err instanceof errors.DuplicateOrderId) return 'duplicate';
  // The exchange's duplicate-id code, which ccxt may report as a plain InvalidOrder.
  if (saysDuplicate(err)) return 'duplicate';
  if (err instanceof errors.AuthenticationError) return 'auth';
  // Only the exchange's known refusals of the order itself mean "not placed". A plain ExchangeError
  // (ccxt's class for a code it does not map, a 5xx's body included), a parse error after the request
  // was carried out, or anything of ours: the request may have left, so the order is looked up.
  if (
    err instanceof errors.InvalidOrder ||
    err instanceof errors.InsufficientFunds ||
    err instanceof errors.BadRequest ||
    err instanceof errors.BadSymbol
  )
    return 'rejected';
  return 'unknown';
}

/**
 * The exchange's refusal in one line for `rejectReason`: ccxt's class and the exchange's message, e.g.
 * `InsufficientFunds: Margin is insufficient. (-2019)`. ccxt's message carries the exchange's JSON
 * answer, never the request (no key or signature in it).
 */
export function rejectReason(err: unknown): string {
  const name = err instanceof Error ? err.name : 'Error';
  const text = err instanceof Error ? err.message : String(err);
  // The exchange's fields (Binance `{code, msg}`, Bybit `{retCode, retMsg}`): its profile's, or the
  // first profile's whose message field the body has when ccxt's id is not one we know.
  const whole = bodyIn(text);
  const fields = errorFieldsFor(whole, profileOfError(err));
  // An answer refusing one order says why in its list (the profile's `perOrder`: OKX's data[0].sCode).
  const list = fields?.perOrder ? whole?.[fields.perOrder.list] : undefined;
  const item = Array.isArray(list) ? (list[0] as Record<string, unknown> | undefined) : undefined;
  const own = fields?.perOrder;
  if (own && item && typeof item[own.message] === 'string')
    return `${name}: ${String(item[own.message])} (${String(item[own.code])})`;
  const message = fields ? whole?.[fields.message] : undefined;
  if (typeof message === 'string' && message !== '') {
    const code = whole?.[fields!.code];
    return `${name}: ${message}${code !== undefined ? ` (${String(code)})` : ''}`;
  }
  return `${name}: ${text.slice(0, 200)}`;
}

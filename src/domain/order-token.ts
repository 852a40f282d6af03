/**
 * Approval tokens (spec step 5): the risk engine signs each approved order with
 * `hmac:<hex>` = HMAC-SHA256(secret, canonicalJson({ v: 2, clientOrderId, symbol, side, qty, type,
 * limitPrice, reduceOnly, timeInForce, goodTill, postOnly, epoch, expiresAt })), and the order
 * manager verifies it before submitting. The optional order fields are signed with their defaults
 * filled in (GTC, null, false), so an order that omits them and one that spells the defaults out
 * are the same order and carry the same token.
 * Any change to a signed field, the control epoch or the expiry breaks the token; a token from an
 * older control epoch (a pause or kill happened since) or past its expiry is refused.
 *
 * Only the fields listed are signed: a field added to OrderRequest later must be added here with
 * `v` raised, or it could be altered without detection.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';
import type { ApprovedOrder, OrderRequest } from './orders.js';

export const TOKEN_PREFIX = 'hmac:';
export const TOKEN_VERSION = 2;
const TOKEN_PATTERN = /^hmac:[0-9a-f]{64}$/;

export interface SignOptions {
  /** RISK_HMAC_SECRET; a non-empty string or bytes. */
  secret: string | Uint8Array;
  /** The control epoch the approval belongs to. */
  epoch: number;
  /** Epoch ms; the token is valid up to and including this instant. */
  expiresAt: number;
}

export interface VerifyOptions {
  secret: string | Uint8Array;
  /** Epoch ms, from the injected clock. */
  now: number;
  /** The control epoch now; any other epoch in the token is refused. */
  currentEpoch: number;
}

export type TokenErrorCode = 'TOKEN_MALFORMED' | 'TOKEN_INVALID' | 'TOKEN_EXPIRED' | 'EPOCH_STALE';

export type TokenVerification = { ok: true } | { ok: false; code: TokenErrorCode; message: string };

/** The exact bytes the token covers (exported for tests and for debugging a refused token). */
export function approvalPayload(order: OrderRequest, epoch: number, expiresAt: number): string {
  return canonicalJson({
    v: TOKEN_VERSION,
    clientOrderId: order.clientOrderId,
    symbol: order.symbol,
    side: order.side,
    qty: order.qty,
    type: order.type,
    limitPrice: order.limitPrice,
    reduceOnly: order.reduceOnly,
    timeInForce: order.timeInForce ?? 'GTC',
    goodTill: order.goodTill ?? null,
    postOnly: order.postOnly ?? false,
    epoch,
    expiresAt,
  });
}

export function signApproval(order: OrderRequest, options: SignOptions): ApprovedOrder {
  requireSecret(options.secret);
  if (!Number.isSafeInteger(options.epoch) || options.epoch < 0)
    throw new RangeError(`epoch must be a non-negative integer, got ${options.epoch}`);
  if (!Number.isFinite(options.expiresAt))
    throw new RangeError(`expiresAt must be a finite epoch ms, got ${options.expiresAt}`);
  const mac = hmacHex(options.secret, approvalPayload(order, options.epoch, options.expiresAt));
  // A copy of the order: later changes to the caller's object must not silently alter what was approved.
  return { order: { ...order }, token: `${TOKEN_PREFIX}${mac}`, epoch: options.epoch, expiresAt: options.expiresAt };
}

/**
 * Checks in this order: token shape (TOKEN_MALFORMED), signature in constant time (TOKEN_INVALID),
 * control epoch (EPOCH_STALE: a pause or kill since approval is the more useful explanation than
 * expiry), then expiry (TOKEN_EXPIRED: refused once now > expiresAt). Never throws for a bad token;
 * throws only for an empty secret, which is a configuration error.
 */
export function verifyApproval(approved: ApprovedOrder, options: VerifyOptions): TokenVerification {
  requireSecret(options.secret);
  const token: unknown = approved.token;
  if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) {
    return fail('TOKEN_MALFORMED', 'token is not "hmac:" followed by 64 lowercase hex digits');
  }
  let payload: string;
  try {
    payload = approvalPayload(approved.order, approved.epoch, approved.expiresAt);
  } catch {
    return fail('TOKEN_MALFORMED', 'the approved order contains values that cannot be encoded (NaN or Infinity)');
  }
  const expected = Buffer.from(hmacHex(options.secret, payload), 'hex');
  const given = Buffer.from(token.slice(TOKEN_PREFIX.length), 'hex');
  if (!constantTimeEqual(expected, given)) {
    return fail('TOKEN_INVALID', 'signature does not match the order, epoch and expiry');
  }
  if (approved.epoch !== options.currentEpoch) {
    return fail('EPOCH_STALE', `approved in control epoch ${approved.epoch}, current epoch is ${options.currentEpoch}`);
  }
  // Written as "not (now ≤ expiresAt)" so a NaN clock reading fails closed, as expired.
  if (!(options.now <= approved.expiresAt)) {
    return fail('TOKEN_EXPIRED', `expired at ${approved.expiresAt}, now ${options.now}`);
  }
  return { ok: true };
}

/**
 * Constant-time comparison that tolerates different lengths: timingSafeEqual throws on a length
 * mismatch, so compare `a` with itself instead (same work) and report false.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
}

function hmacHex(secret: string | Uint8Array, payload: string): string {
  return createHmac('sha256', secret).update(payload, 'utf8').digest('hex');
}

function requireSecret(secret: string | Uint8Array): void {
  if (secret.length === 0) throw new RangeError('HMAC secret is empty (set RISK_HMAC_SECRET)');
}

function fail(code: TokenErrorCode, message: string): TokenVerification {
  return { ok: false, code, message };
}

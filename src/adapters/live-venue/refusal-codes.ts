/**
 * What the exchange's own error code in a failed request says about the order, read from the
 * exchange's profile (its `refusalCodes` table: src/adapters/exchanges/<id>.ts; docs/operate/live-trading.md,
 * "Refusals by code"). The code decides first; a code the table does not list is judged by ccxt's
 * class (./exchange-errors.ts).
 *
 * - `rejected`: the exchange looked at the order and refused it; nothing was placed, the order
 *   manager is released at once with the code in the reason.
 * - `retryable`: refused before it was processed (overloaded); nothing was placed, the same order
 *   may succeed later (the caller decides when).
 * - `rate_limited`: a request-rate refusal (the request gate also sees the 429/418 itself).
 * - `unknown`: the exchange may have carried it out: looked up by client order id, never resent blindly.
 * - `clock`, `duplicate`: as in ./exchange-errors.ts.
 */
import type { CodeKind } from '../exchanges/profile.js';
import { profileOfError } from '../exchanges/registry.js';

/** What the exchange's code in `err` says about the order, or null when it has no code the table knows. */
export function kindByCode(err: unknown): CodeKind | null {
  const profile = profileOfError(err);
  const code = profile?.errorCode(err) ?? null;
  return code === null ? null : (profile?.refusalCodes.get(code) ?? null);
}

/**
 * Whether the exchange says it did not process the request (its profile's `notProcessedCodes`). The
 * table still keeps such a code `unknown` for an order that could add exposure; the venue trusts it
 * for a reduce-only close, which sent twice could never pass flat (./live-venue.ts).
 */
export function saysNotProcessed(err: unknown): boolean {
  const profile = profileOfError(err);
  const code = profile?.errorCode(err) ?? null;
  return code !== null && profile!.notProcessedCodes.includes(code);
}

/** Whether `err` is the exchange's "an open order already has this client id". */
export function saysDuplicate(err: unknown): boolean {
  const profile = profileOfError(err);
  return profile !== null && profile.errorCode(err) === profile.duplicateOrderCode;
}

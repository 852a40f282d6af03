/**
 * The client order id an exchange is sent for one of ours, under the exchange's rule (its profile's
 * `clientOrderId`: Binance accepts `^[.A-Z:/a-z0-9_-]{1,36}$`). ccxt passes ids through unchecked, but
 * some of ours are longer (a flatten's `flt-kill-flatten-epoch-<epoch>-<claim>-<round>-<SYMBOL>`
 * reaches 36 at epoch 1). An id that fits is sent as it is, so an operator finds it on the exchange by
 * the name in our event lines; any other is mapped to `h-` and 32 characters of its SHA-256
 * (base64url): stable across restarts — the same intent always gets the same exchange id, which is
 * what lets a lookup after a crash find it — and with 192 bits, no two of ours collide. Under a rule
 * of letters and digits only (`alphanumericOnly`: OKX) the hashed form is `hx` and 30 hex characters.
 */
import { createHash } from 'node:crypto';
import type { ClientIdRule } from '../exchanges/profile.js';
import { exchangeProfile, SUPPORTED_EXCHANGES } from '../exchanges/registry.js';

const HASHED_PREFIX = 'h-';
/** The hashed form's start under a rule of letters and digits only (`-` is not allowed there). */
const HEX_PREFIX = 'hx';

/** `rule`: the exchange's; without one (a caller that names no exchange), the first supported exchange's. */
export function exchangeClientId(
  clientOrderId: string,
  rule: ClientIdRule = exchangeProfile(SUPPORTED_EXCHANGES[0]!).clientOrderId,
): string {
  const fits = rule.pattern.test(clientOrderId) && clientOrderId.length <= rule.maxLength;
  if (fits && !rule.alphanumericOnly && !clientOrderId.startsWith(HASHED_PREFIX)) return clientOrderId;
  if (rule.alphanumericOnly) {
    // Letters and digits only, starting with a letter (OKX): hex, 4 bits a character, so 30 of them
    // still leave 120 bits.
    if (fits && !clientOrderId.startsWith(HEX_PREFIX)) return clientOrderId;
    const hex = createHash('sha256').update(clientOrderId).digest('hex');
    return HEX_PREFIX + hex.slice(0, Math.min(30, rule.maxLength - HEX_PREFIX.length));
  }
  const digest = createHash('sha256').update(clientOrderId).digest('base64url');
  return HASHED_PREFIX + digest.slice(0, Math.min(32, rule.maxLength - HASHED_PREFIX.length));
}

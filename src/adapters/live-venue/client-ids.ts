/**
 * The client order id an exchange is sent for one of ours. Binance accepts `^[.A-Z:/a-z0-9_-]{1,36}$`
 * and ccxt passes ids through unchecked, but some of ours are longer (a flatten's
 * `flt-kill-flatten-epoch-<epoch>-<claim>-<round>-<SYMBOL>` reaches 36 at epoch 1). An id that fits
 * is sent as it is, so an operator finds it on the exchange by the name in our event lines; any
 * other is mapped to `h-` and 32 characters of its SHA-256 (base64url): stable across restarts — the
 * same intent always gets the same exchange id, which is what lets a lookup after a crash find it
 * — and with 192 bits, no two of ours collide.
 */
import { createHash } from 'node:crypto';

const EXCHANGE_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;
const HASHED_PREFIX = 'h-';

export function exchangeClientId(clientOrderId: string): string {
  if (EXCHANGE_ID.test(clientOrderId) && !clientOrderId.startsWith(HASHED_PREFIX)) return clientOrderId;
  const digest = createHash('sha256').update(clientOrderId).digest('base64url');
  return HASHED_PREFIX + digest.slice(0, 32);
}

/**
 * Bitget V2's error answers (Bitget API docs, "Common → Error code"; ccxt's bitget
 * `exceptions.exact` decides the class by the code): every refusal is
 * `{"code":"40762","msg":"…","requestTime":…,"data":null}`, HTTP 400 (the fake's reading: Bitget
 * documents the code, not the status; ccxt reads the code whatever the status). The engine
 * (../../venue.ts, ../../order-rules.ts) throws Binance's errors; `fromEngine` says each in Bitget's words.
 */
import { BinanceError } from '../../binance-errors.js';

export class BitgetError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** HTTP status of the refusal. */
    readonly status = 400,
  ) {
    super(message);
  }
}

const err =
  (code: number, msg: string, status = 400) =>
  () =>
    new BitgetError(code, msg, status);

export const bitgetErrors = {
  params: (detail: string) => new BitgetError(40017, `Parameter verification failed ${detail}`),
  empty: (name: string) => new BitgetError(40019, `Parameter ${name} cannot be empty`),
  timestamp: err(40008, 'Request timestamp expired'),
  apiKey: err(40006, 'Invalid ACCESS_KEY'),
  passphrase: err(40012, 'apikey/password is incorrect'),
  sign: err(40009, 'sign signature error'),
  symbol: err(40034, 'Parameter does not exist'),
  orderNotFound: err(40109, 'The data of the order cannot be found, please confirm the order number'),
  planNotFound: err(43025, 'Plan order does not exist'),
  cancelFailed: err(40768, 'Order does not exist'),
  // docs: Error code, 40786 "Duplicate clientOid" (an assumption of the wording; ccxt has no entry for it).
  duplicate: err(40786, 'Duplicate clientOid'),
  oneWay: err(40774, 'The order type for unilateral position must also be the unilateral position type.'),
  system: err(40015, 'System is abnormal, please try again later', 500),
};

/** Binance's engine codes in Bitget's (Bitget API docs, "Error code", futures). */
const FROM_BINANCE: ReadonlyMap<number, [number, string]> = new Map([
  [-1001, [40015, 'System is abnormal, please try again later']],
  [-2011, [40768, 'Order does not exist']],
  [-2013, [40109, 'The data of the order cannot be found, please confirm the order number']],
  [-2019, [40762, 'The order amount exceeds the balance']],
  [-2022, [22002, 'No position to close']],
  [-4116, [40786, 'Duplicate clientOid']],
  [-4016, [40706, 'Wrong order price']],
  [-4024, [40706, 'Wrong order price']],
  [-4164, [45110, 'less than the minimum amount 5 USDT']],
]);

export function fromEngine(e: unknown): BitgetError {
  if (e instanceof BitgetError) return e;
  if (e instanceof BinanceError) {
    const known = FROM_BINANCE.get(e.code);
    return known
      ? new BitgetError(known[0], known[1])
      : new BitgetError(40017, `Parameter verification failed: ${e.message}`);
  }
  return new BitgetError(40017, `Parameter verification failed: ${(e as Error).message}`);
}

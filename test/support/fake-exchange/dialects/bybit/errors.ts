/**
 * Bybit v5's error answers: HTTP 200 with a non-zero `retCode` and its `retMsg` (Bybit v5 docs,
 * "Error Codes"; ccxt's bybit `exceptions.exact` decides the class by the code). The engine
 * (../../venue.ts, ../../order-rules.ts) throws Binance's errors; `fromEngine` says each in Bybit's
 * words, so the engine stays one.
 */
import { BinanceError } from '../../binance-errors.js';

export class BybitError extends Error {
  constructor(
    readonly retCode: number,
    message: string,
  ) {
    super(message);
  }
}

const err = (code: number, msg: string) => () => new BybitError(code, msg);

export const bybitErrors = {
  params: (detail: string) => new BybitError(10001, `params error: ${detail}`),
  timestamp: err(
    10002,
    'invalid request, please check your server timestamp or recv_window param. req_timestamp[x],server_timestamp[y],recv_window[z]',
  ),
  apiKey: err(10003, 'API key is invalid.'),
  sign: err(10004, 'error sign! origin_string[...]'),
  notFound: err(110001, 'order not exists or too late to cancel'),
  duplicate: err(110072, 'OrderLinkedID is duplicate'),
  leverageNotModified: err(110043, 'leverage not modified'),
  positionModeNotModified: err(110025, 'Position mode is not modified'),
  system: err(10016, 'System error. Please try again later.'),
};

/** Binance's engine codes in Bybit's (Bybit v5 docs, "UTA" and "Contract" error tables). */
const FROM_BINANCE: ReadonlyMap<number, [number, string]> = new Map([
  [-1001, [10016, 'System error. Please try again later.']],
  [-2011, [110001, 'order not exists or too late to cancel']],
  [-2013, [110001, 'order not exists or too late to cancel']],
  [-2019, [110007, 'ab not enough for new order']],
  [-2022, [110017, 'current position is zero, cannot fix reduce-only order qty']],
  [-4116, [110072, 'OrderLinkedID is duplicate']],
  [-4016, [110003, 'Order price exceeds the allowable range.']],
  [-4024, [110003, 'Order price exceeds the allowable range.']],
  [-4164, [110094, 'Order does not meet minimum order value']],
]);

export function fromEngine(e: unknown): BybitError {
  if (e instanceof BybitError) return e;
  if (e instanceof BinanceError) {
    const known = FROM_BINANCE.get(e.code);
    return known ? new BybitError(known[0], known[1]) : new BybitError(10001, `params error: ${e.message}`);
  }
  return new BybitError(10001, `params error: ${(e as Error).message}`);
}

/**
 * OKX v5's error answers (OKX v5 docs, "Error Code"; ccxt's okx `exceptions.exact` decides the class
 * by the code): a request refused as a whole answers `{"code":"50113","msg":"Invalid Sign","data":[]}`
 * (HTTP 401 for authentication, 400 for a bad request); one order refused answers HTTP 200 with
 * `{"code":"1","msg":"All operations failed","data":[{"sCode":"51008","sMsg":"…"}]}`. The engine
 * (../../venue.ts, ../../order-rules.ts) throws Binance's errors; `fromEngine` says each in OKX's words.
 */
import { BinanceError } from '../../binance-errors.js';

export class OkxError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** HTTP status of a request-level refusal. */
    readonly status = 400,
    /** Said of one order (`data[0].sCode`) rather than of the request. */
    readonly ofOrder = false,
  ) {
    super(message);
  }
}

const err =
  (code: number, msg: string, status = 400) =>
  () =>
    new OkxError(code, msg, status);

export const okxErrors = {
  params: (detail: string) => new OkxError(51000, `Parameter ${detail} error`),
  empty: (name: string) => new OkxError(50014, `Parameter ${name} can not be empty.`),
  timestamp: err(50102, 'Timestamp request expired', 401),
  apiKey: err(50111, 'Invalid OK-ACCESS-KEY', 401),
  passphrase: err(50105, 'Invalid OK-ACCESS-PASSPHRASE', 401),
  sign: err(50113, 'Invalid Sign', 401),
  instrument: err(51001, "Instrument ID or Spread ID doesn't exist."),
  orderNotFound: err(51603, "Order doesn't exist."),
  cancelFailed: err(51400, 'Order cancellation failed as the order has been filled, canceled or does not exist.'),
  duplicate: err(51016, 'Duplicated clOrdId'),
  system: err(50026, 'System error. Try again later', 500),
};

/** Binance's engine codes in OKX's (OKX v5 docs, "Error Code", 51000-range). */
const FROM_BINANCE: ReadonlyMap<number, [number, string]> = new Map([
  [-1001, [50026, 'System error. Try again later']],
  [-2011, [51400, 'Order cancellation failed as the order has been filled, canceled or does not exist.']],
  [-2013, [51603, "Order doesn't exist."]],
  [-2019, [51008, 'Order failed. Insufficient USDT margin in account']],
  [
    -2022,
    [
      51169,
      "Order failed because you don't have any positions in this direction for this contract to reduce or close.",
    ],
  ],
  [-4116, [51016, 'Duplicated clOrdId']],
  [-4016, [51006, 'Order price is not within the price limit']],
  [-4024, [51006, 'Order price is not within the price limit']],
  [-4164, [51020, 'Your order should meet or exceed the minimum order amount.']],
]);

export function fromEngine(e: unknown): OkxError {
  if (e instanceof OkxError) return e;
  if (e instanceof BinanceError) {
    const known = FROM_BINANCE.get(e.code);
    return known ? new OkxError(known[0], known[1]) : new OkxError(51000, `Parameter error: ${e.message}`);
  }
  return new OkxError(51000, `Parameter error: ${(e as Error).message}`);
}

/** The same refusal said of one order (Place order, Cancel order: HTTP 200, `sCode` in data). */
export function ofOrder(e: unknown): OkxError {
  const o = fromEngine(e);
  return o.status === 401 ? o : new OkxError(o.code, o.message, 200, true);
}

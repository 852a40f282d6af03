/**
 * Binance spot's error answers: `{code, msg}` with HTTP 400 (docs: binance-spot-api-docs, "Error
 * codes" and "Messages for -1010 ERROR_MSG_RECEIVED, -2010 NEW_ORDER_REJECTED…"). The engine
 * (../../venue.ts, ../../order-rules.ts) throws Binance USDⓈ-M's errors; `fromEngine` says each in
 * spot's words, so the engine stays one. Codes both APIs share (-1021, -1102, -2013 …) pass as they are.
 */
import { BinanceError } from '../../binance-errors.js';

const bad = (code: number, msg: string) => new BinanceError(400, code, msg);

export const spotErrors = {
  insufficientBalance: () => bad(-2010, 'Account has insufficient balance for requested action.'),
  wouldTake: () => bad(-2010, 'Order would immediately match and take.'),
  duplicate: () => bad(-2010, 'Duplicate order sent.'),
  notional: () => bad(-1013, 'Filter failure: NOTIONAL'),
  percentPrice: () => bad(-1013, 'Filter failure: PERCENT_PRICE_BY_SIDE'),
  lotSize: () => bad(-1013, 'Filter failure: LOT_SIZE'),
  priceFilter: () => bad(-1013, 'Filter failure: PRICE_FILTER'),
  // DELETE /api/v3/openOrders with nothing open answers this (as a cancel of an unknown order).
  unknownOrder: () => bad(-2011, 'Unknown order sent.'),
  illegalChars: () =>
    bad(-1100, "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[a-zA-Z0-9-_]{1,36}$'."),
};

/** USDⓈ-M codes the engine throws, in spot's words. */
const FROM_FUTURES: ReadonlyMap<number, () => BinanceError> = new Map([
  [-2019, spotErrors.insufficientBalance],
  [-5022, spotErrors.wouldTake],
  [-4116, spotErrors.duplicate],
  [-4164, spotErrors.notional],
  [-4016, spotErrors.percentPrice],
  [-4024, spotErrors.percentPrice],
  [-4005, spotErrors.lotSize],
  [-4023, spotErrors.lotSize],
  [-4014, spotErrors.priceFilter],
  [-4015, spotErrors.illegalChars],
]);

export function fromEngine(err: unknown): BinanceError {
  if (err instanceof BinanceError) return FROM_FUTURES.get(err.code)?.() ?? err;
  return bad(-1100, (err as Error).message);
}

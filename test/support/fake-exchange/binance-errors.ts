/**
 * The Binance USDⓈ-M error answers the fake gives, each with the HTTP status and the code and
 * message of Binance's published error list (developers.binance.com …/usds-margined-futures/
 * error-code). ccxt judges an error by that code (its exception tables), so the fake answers with
 * the exchange's own, never an invented one.
 */

/** An error answer: thrown anywhere in the fake's handling, turned into the HTTP reply at the edge. */
export class BinanceError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }

  body(): { code: number; msg: string } {
    return { code: this.code, msg: this.message };
  }
}

const bad = (code: number, msg: string) => new BinanceError(400, code, msg);

export const errors = {
  // 10xx: general and signing; -1001 is the exchange failing before doing anything; -2014/-2015
  // answer 401, as Binance does for a key it refuses.
  internal: () => new BinanceError(503, -1001, 'Internal error; unable to process your request. Please try again.'),
  badSignature: () => bad(-1022, 'Signature for this request is not valid.'),
  badApiKeyFormat: () => new BinanceError(401, -2014, 'API-key format invalid.'),
  rejectedApiKey: () => new BinanceError(401, -2015, 'Invalid API-key, IP, or permissions for action.'),
  outsideRecvWindow: () => bad(-1021, 'Timestamp for this request is outside of the recvWindow.'),
  aheadOfServer: () => bad(-1021, "Timestamp for this request was 1000ms ahead of the server's time."),
  // 11xx: the request itself.
  mandatory: (name: string) => bad(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`),
  eitherOf: (a: string, b: string) => bad(-1102, `Param '${a}' or '${b}' must be sent, but both were empty/null!`),
  notRequired: (name: string) => bad(-1106, `Parameter '${name}' sent when not required.`),
  badPrecision: () => bad(-1111, 'Precision is over the maximum defined for this asset.'),
  invalidTimeInForce: () => bad(-1115, 'Invalid timeInForce.'),
  invalidOrderType: () => bad(-1116, 'Invalid orderType.'),
  invalidSide: () => bad(-1117, 'Invalid side.'),
  invalidSymbol: () => bad(-1121, 'Invalid symbol.'),
  // 20xx: processing.
  unknownOrderSent: () => bad(-2011, 'Unknown order sent.'),
  noSuchOrder: () => bad(-2013, 'Order does not exist.'),
  marginInsufficient: () => bad(-2019, 'Margin is insufficient.'),
  reduceOnlyRejected: () => bad(-2022, 'ReduceOnly Order is rejected.'),
  // -2027/-2028: the position the order would make is more than the leverage bracket or the margin allows.
  aboveMaxPositionAtLeverage: () => bad(-2027, 'Exceeded the maximum allowable position at current leverage.'),
  leverageTooSmall: () => bad(-2028, 'Leverage is smaller than permitted: insufficient margin balance.'),
  // 40xx: filters.
  priceNotPositive: () => bad(-4001, 'Price less than 0.'),
  qtyNotPositive: () => bad(-4003, 'Quantity less than zero.'),
  qtyAboveMax: () => bad(-4005, 'Quantity greater than max quantity.'),
  priceNotOnTick: () => bad(-4014, 'Price not increased by tick size.'),
  clientOrderIdInvalid: () => bad(-4015, 'Client order id is not valid.'),
  priceAboveCap: () => bad(-4016, 'Price is higher than mark price multiplier cap.'),
  qtyNotOnStep: () => bad(-4023, 'Qty not increased by step size.'),
  priceBelowFloor: () => bad(-4024, 'Price is lower than mark price multiplier floor.'),
  positionSideMismatch: () => bad(-4061, "Order's position side does not match user's setting."),
  counterpartyOutsidePercentPrice: () =>
    bad(-4131, "The counterparty's best price does not meet the PERCENT_PRICE filter limit."),
  duplicateClientOrderId: () => bad(-4116, 'ClientOrderId is duplicated.'),
  minNotional: (notional: string) =>
    bad(-4164, `Order's notional must be no smaller than ${notional} (unless you choose reduce only).`),
  // 50xx: execution.
  postOnlyWouldTake: () =>
    bad(-5022, 'Due to the order could not be executed as maker, the Post Only order will be rejected.'),
};

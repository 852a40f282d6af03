/**
 * The fake's signature check against Binance's own worked examples (USDⓈ-M "General Info",
 * SIGNED endpoint examples for POST /fapi/v1/order): the same key, secret, parameters and
 * signatures, as a query string, as a body, and split between the two — so the fake accepts what
 * Binance accepts and refuses the rest with Binance's codes.
 */
import { describe, expect, it } from 'vitest';
import { BinanceError } from '../../support/fake-exchange/binance-errors.js';
import { verifySigned } from '../../support/fake-exchange/signed-request.js';

const DOCS = {
  apiKey: 'dbefbc809e3e83c283a984c3a1459732ea7db1360ca80c5c2c8867408d28cc83',
  secret: '2b5eb11e18796d12d88f13dc27dbbd02c2cc51ff7059765ed9821957d82bb4d9',
};
const TIMESTAMP = 1591702613943;
const PARAMS =
  'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=9000&timeInForce=GTC&recvWindow=5000&timestamp=1591702613943';
const SIGNATURE = '3c661234138461fcc7a7d8746c6558c9842d4e10870d2ecbedf7777cad694af9';

function refusal(run: () => unknown): { status: number; code: number } {
  try {
    run();
  } catch (err) {
    if (err instanceof BinanceError) return { status: err.status, code: err.code };
    throw err;
  }
  throw new Error('accepted');
}

describe('verifySigned', () => {
  it("accepts Binance's example 1 (query string) and example 2 (request body)", () => {
    const signed = `${PARAMS}&signature=${SIGNATURE}`;
    const inQuery = verifySigned({ query: signed, body: '', apiKeyHeader: DOCS.apiKey }, DOCS, TIMESTAMP);
    const inBody = verifySigned({ query: '', body: signed, apiKeyHeader: DOCS.apiKey }, DOCS, TIMESTAMP);
    for (const params of [inQuery, inBody]) {
      expect(Object.fromEntries(params)).toEqual({
        symbol: 'BTCUSDT',
        side: 'BUY',
        type: 'LIMIT',
        quantity: '1',
        price: '9000',
        timeInForce: 'GTC',
        recvWindow: '5000',
        timestamp: String(TIMESTAMP),
      });
    }
  });

  it("accepts example 3, signed over the query followed by the body with no '&' between", () => {
    // As published: the docs' body carries a stray space after "timestamp=", and was signed with it.
    const query = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC';
    const body =
      'quantity=1&price=9000&recvWindow=5000&timestamp= 1591702613943' +
      '&signature=f9d0ae5e813ef6ccf15c2b5a434047a0181cb5a342b903b367ca6d27a66e36f2';
    const params = verifySigned({ query, body, apiKeyHeader: DOCS.apiKey }, DOCS, TIMESTAMP);
    expect(params.get('quantity')).toBe('1');
    expect(params.get('timeInForce')).toBe('GTC');
  });

  it('refuses a wrong signature (-1022), a malformed key (-2014), an unknown key (-2015)', () => {
    const signed = `${PARAMS}&signature=${SIGNATURE.replace('3c', '4c')}`;
    expect(
      refusal(() => verifySigned({ query: signed, body: '', apiKeyHeader: DOCS.apiKey }, DOCS, TIMESTAMP)),
    ).toEqual({
      status: 400,
      code: -1022,
    });
    const good = `${PARAMS}&signature=${SIGNATURE}`;
    expect(refusal(() => verifySigned({ query: good, body: '', apiKeyHeader: undefined }, DOCS, TIMESTAMP))).toEqual({
      status: 401,
      code: -2014,
    });
    expect(refusal(() => verifySigned({ query: good, body: '', apiKeyHeader: 'a b' }, DOCS, TIMESTAMP))).toEqual({
      status: 401,
      code: -2014,
    });
    expect(
      refusal(() => verifySigned({ query: good, body: '', apiKeyHeader: 'x'.repeat(64) }, DOCS, TIMESTAMP)),
    ).toEqual({
      status: 401,
      code: -2015,
    });
  });

  it('refuses a timestamp outside recvWindow or 1000 ms ahead of the server (-1021)', () => {
    const good = { query: `${PARAMS}&signature=${SIGNATURE}`, body: '', apiKeyHeader: DOCS.apiKey };
    expect(() => verifySigned(good, DOCS, TIMESTAMP + 5000)).not.toThrow();
    expect(refusal(() => verifySigned(good, DOCS, TIMESTAMP + 5001))).toEqual({ status: 400, code: -1021 });
    expect(() => verifySigned(good, DOCS, TIMESTAMP - 999)).not.toThrow();
    expect(refusal(() => verifySigned(good, DOCS, TIMESTAMP - 1000))).toEqual({ status: 400, code: -1021 });
  });
});

/**
 * The downloader's one-line reasons, from ccxt's messages as ccxt words them (taken from real
 * failures: a closed port, DNS, a hung server, 4xx/5xx answers), and which of them are retried.
 */
import { describe, expect, it } from 'vitest';
import { describeRequestFailure } from '../../../../src/adapters/market-data/download/request-failure.js';

const URL = 'binanceusdm GET https://fapi.binance.com/fapi/v1/exchangeInfo';

describe('describeRequestFailure', () => {
  it.each([
    [
      `${URL} fetch failed: getaddrinfo ENOTFOUND fapi.binance.com`,
      'DNS lookup of fapi.binance.com failed (ENOTFOUND): no such host, or no DNS on this machine',
      true,
    ],
    [
      `${URL} fetch failed: getaddrinfo EAI_AGAIN fapi.binance.com`,
      'DNS lookup of fapi.binance.com failed (EAI_AGAIN): no DNS server answered; is this machine offline?',
      true,
    ],
    [
      `${URL} fetch failed: connect ECONNREFUSED 1.2.3.4:443`,
      'fapi.binance.com refused the connection (ECONNREFUSED): nothing listens there',
      true,
    ],
    [
      `${URL} fetch failed: connect EHOSTUNREACH 1.2.3.4:443`,
      'fapi.binance.com is unreachable (EHOSTUNREACH): no route to it; is this machine offline?',
      true,
    ],
    [`${URL} fetch failed: read ECONNRESET`, 'the connection to fapi.binance.com failed (ECONNRESET)', false],
    [`${URL} request timed out (10000 ms)`, 'fapi.binance.com did not answer within 10 s', false],
    [
      `${URL} 503 Service Unavailable <html>busy</html>`,
      'fapi.binance.com answered HTTP 503 Service Unavailable',
      false,
    ],
    [`binanceusdm 429 Too Many Requests {"code":-1003}`, 'the exchange answered HTTP 429 Too Many Requests', false],
    [`${URL} 404 Not Found <html></html>`, 'fapi.binance.com answered HTTP 404 Not Found', true],
  ])('%s', (message, reason, permanent) => {
    expect(describeRequestFailure(new Error(message))).toEqual({ reason, permanent });
  });

  it('403 and 451 are refusals of this address or region, with what to try', () => {
    const failure = describeRequestFailure(new Error(`${URL} 451 Unavailable For Legal Reasons {"code":0}`));
    expect(failure.permanent).toBe(true);
    expect(failure.reason).toMatch(
      /^fapi\.binance\.com answered HTTP 451 Unavailable For Legal Reasons: the exchange refuses/,
    );
    expect(failure.reason).toContain('LIVE_EXCHANGE_URL');
  });

  it('anything else as ccxt said it, on one line', () => {
    expect(describeRequestFailure(new Error('binanceusdm\n{"code":-1121,"msg":"Invalid symbol."}'))).toEqual({
      reason: 'binanceusdm {"code":-1121,"msg":"Invalid symbol."}',
      permanent: false,
    });
  });
});

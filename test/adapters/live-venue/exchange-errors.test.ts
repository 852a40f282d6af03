/**
 * How a failed order request is judged (src/adapters/live-venue/exchange-errors.ts): by the exchange's
 * own code first (./refusal-codes.ts), then by ccxt's class. The errors are built as ccxt's binanceusdm
 * throws them: the class its exception table maps the code to, the message `binanceusdm <body>`.
 */
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { failureKind, rejectReason } from '../../../src/adapters/live-venue/exchange-errors.js';

type Thrown = new (message: string) => Error;
const thrown = (Class: Thrown, code: number, msg: string) => new Class(`binanceusdm ${JSON.stringify({ code, msg })}`);

describe('failureKind', () => {
  it.each([
    [ccxt.OperationRejected, -2027, 'Exceeded the maximum allowable position at current leverage.'],
    [ccxt.OperationRejected, -2028, 'Leverage is smaller than permitted: insufficient margin balance.'],
    [ccxt.OperationRejected, -4061, "Order's position side does not match user's setting."],
    [ccxt.OperationRejected, -4131, "The counterparty's best price does not meet the PERCENT_PRICE filter limit."],
    [ccxt.OperationRejected, -2025, 'Reach max open order limit.'],
    [ccxt.OperationRejected, -4118, 'ReduceOnly Order Failed. Please check your existing position and open orders'],
    [ccxt.BadRequest, -4005, 'Quantity greater than max quantity.'],
    [ccxt.PermissionDenied, -4087, 'User can only place reduce only order.'],
    [ccxt.OperationFailed, -2020, 'Unable to fill.'],
    [ccxt.OperationFailed, -2023, 'User in liquidation mode now.'],
  ])('%o %i is a refusal: never placed, rejected with its code', (Class, code, msg) => {
    const err = thrown(Class as Thrown, code, msg);
    expect(failureKind(err, ccxt)).toBe('rejected');
    expect(rejectReason(err)).toContain(`(${code})`);
  });

  it("OKX's refusal of one order is read from the order's own sCode and sMsg, not the answer's general code", () => {
    const body = {
      code: '1',
      msg: 'All operations failed',
      data: [{ ordId: '', clOrdId: 'a1', sCode: '51008', sMsg: 'Order failed. Insufficient USDT margin in account' }],
    };
    const err = new ccxt.InsufficientFunds(`okx ${JSON.stringify(body)}`);
    expect(rejectReason(err)).toBe('InsufficientFunds: Order failed. Insufficient USDT margin in account (51008)');
    expect(failureKind(err, ccxt)).toBe('rejected');
    const duplicate = new ccxt.InvalidOrder(
      `okx ${JSON.stringify({ ...body, data: [{ ...body.data[0], sCode: '51016', sMsg: 'Duplicated clOrdId' }] })}`,
    );
    expect(failureKind(duplicate, ccxt)).toBe('duplicate');
    // A whole request refused: the answer's own code.
    const sign = new ccxt.AuthenticationError(
      `okx ${JSON.stringify({ code: '50113', msg: 'Invalid Sign', data: [] })}`,
    );
    expect(rejectReason(sign)).toBe('AuthenticationError: Invalid Sign (50113)');
  });

  it('an overloaded exchange (-1008) refused the request unprocessed: retryable, not an unknown outcome', () => {
    const err = thrown(
      ccxt.OperationFailed,
      -1008,
      'Server is currently overloaded with other requests. Please try again in a few minutes.',
    );
    expect(failureKind(err, ccxt)).toBe('retryable');
  });

  it.each([
    [ccxt.OperationFailed, -1000, 'An unknown error occured while processing the request.'],
    [ccxt.OperationFailed, -1001, 'Internal error; unable to process your request. Please try again.'],
    [
      ccxt.OperationFailed,
      -1006,
      'An unexpected response was received from the message bus. Execution status unknown.',
    ],
    [
      ccxt.RequestTimeout,
      -1007,
      'Timeout waiting for response from backend server. Send status unknown; execution status unknown.',
    ],
  ])('%o %i may have been carried out: unknown, looked up by client id', (Class, code, msg) => {
    expect(failureKind(thrown(Class as Thrown, code, msg), ccxt)).toBe('unknown');
  });

  it('the code decides over the class: -1021 clock, -4116 duplicate, -1003 rate limited', () => {
    expect(
      failureKind(thrown(ccxt.ExchangeError, -1021, 'Timestamp for this request is outside of the recvWindow.'), ccxt),
    ).toBe('clock');
    expect(failureKind(thrown(ccxt.InvalidOrder, -4116, 'ClientOrderId is duplicated.'), ccxt)).toBe('duplicate');
    expect(failureKind(thrown(ccxt.ExchangeError, -1003, 'Too many requests.'), ccxt)).toBe('rate_limited');
  });

  it('a code not in the table falls back to ccxt’s class; no code at all is unknown unless the class says otherwise', () => {
    expect(failureKind(thrown(ccxt.InvalidOrder, -9999, 'something new'), ccxt)).toBe('rejected');
    expect(failureKind(thrown(ccxt.ExchangeError, -9999, 'something new'), ccxt)).toBe('unknown');
    expect(failureKind(new ccxt.NetworkError('binanceusdm socket hang up'), ccxt)).toBe('unknown');
    expect(
      failureKind(
        new ccxt.AuthenticationError(
          'binanceusdm {"code":-2015,"msg":"Invalid API-key, IP, or permissions for action."}',
        ),
        ccxt,
      ),
    ).toBe('auth');
  });

  it('a code quoted inside a message that is not the exchange’s body is not read as one', () => {
    expect(failureKind(new ccxt.ExchangeError('binanceusdm GET /x failed: see code -2027 in the docs'), ccxt)).toBe(
      'unknown',
    );
  });
});

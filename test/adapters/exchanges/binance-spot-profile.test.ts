/**
 * The Binance spot profile's one judgement of its own (src/adapters/exchanges/binance-spot.ts):
 * spot answers a duplicate client id with -2010, the code of its plain refusals, told apart only by
 * the message; a duplicate must be looked up (it may be our own order), a refusal must not.
 */
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { failureKind } from '../../../src/adapters/live-venue/exchange-errors.js';

const answer = (msg: string) => new ccxt.InvalidOrder(`binance ${JSON.stringify({ code: -2010, msg })}`);

describe('Binance spot errors', () => {
  it('-2010 "Duplicate order sent." is a duplicate; every other -2010 a refusal', () => {
    expect(failureKind(answer('Duplicate order sent.'), ccxt)).toBe('duplicate');
    expect(failureKind(answer('Account has insufficient balance for requested action.'), ccxt)).toBe('rejected');
    expect(failureKind(answer('Order would immediately match and take.'), ccxt)).toBe('rejected');
  });
});

// Deterministic client order ids: stable for retries, distinct across sessions, venue-safe.
import { describe, expect, it } from 'vitest';
import { newClientOrderId } from '../../src/domain/client-order-id.js';

describe('newClientOrderId', () => {
  it('is <session>-<cycle>-<symbol>-<seq>', () => {
    expect(newClientOrderId('k3x9', 12, 'BTCUSDT', 0)).toBe('k3x9-12-BTCUSDT-0');
    expect(newClientOrderId('k3x9', 12, 'BTCUSDT', 0)).toBe(newClientOrderId('k3x9', 12, 'BTCUSDT', 0));
    expect(newClientOrderId('other', 12, 'BTCUSDT', 0)).not.toBe(newClientOrderId('k3x9', 12, 'BTCUSDT', 0));
  });

  it.each([
    ['', 1, 'BTCUSDT', 0],
    ['a-b', 1, 'BTCUSDT', 0],
    ['abc', -1, 'BTCUSDT', 0],
    ['abc', 1.5, 'BTCUSDT', 0],
    ['abc', 1, 'btc-usdt', 0],
    ['abc', 1, 'BTCUSDT', -1],
  ])('refuses (%j, %j, %j, %j)', (session, cycle, symbol, seq) => {
    expect(() => newClientOrderId(session, cycle, symbol, seq)).toThrow(RangeError);
  });
});

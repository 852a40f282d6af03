/**
 * Opening a ccxt exchange: its own request throttle is on, at the exchange's published rate unless
 * told otherwise. The tests against the local fake exchange (which has no rate to respect) pass a
 * 1 ms interval, so they do not wait out Binance's request weights (seconds per download).
 */
import { describe, expect, it } from 'vitest';
import { openExchange } from '../../../../src/adapters/market-data/live/exchange.js';

describe('openExchange', () => {
  it("throttles at the exchange's published rate by default", async () => {
    const { exchange } = await openExchange('binanceusdm');
    expect(exchange.enableRateLimit).toBe(true);
    expect(exchange.rateLimit).toBe(50);
  });

  it('throttles at the interval it is given', async () => {
    const { exchange } = await openExchange('binanceusdm', { rateLimitMs: 1 });
    expect(exchange.enableRateLimit).toBe(true);
    expect(exchange.rateLimit).toBe(1);
  });
});

/**
 * The fake exchange weighs requests as Binance USDⓈ-M does (test/support/fake-exchange/request-weight.ts):
 * per endpoint and `limit`, per calendar minute of its clock, told in X-MBX-USED-WEIGHT-1M; past the
 * limit a 429 (-1003) with Retry-After to the minute's end, and a client that keeps coming is banned (418).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';

const BTC = 'BTC/USDT:USDT';
let t: TradingFake;

/** The last answer's headers, as ccxt's transport handed them on. */
let lastHeaders: Record<string, string> = {};
const usedHeader = () => Number(lastHeaders['x-mbx-used-weight-1m']);

beforeAll(async () => {
  t = await openTradingFake({ weightLimit: 100 });
  await t.exchange.loadMarkets();
  const hooked = t.exchange as unknown as { onRestResponse: (...args: unknown[]) => unknown };
  const onRestResponse = hooked.onRestResponse.bind(t.exchange);
  hooked.onRestResponse = (...args: unknown[]) => {
    // ccxt capitalises the names (X-Mbx-Used-Weight-1m): kept lower-case as they were sent.
    lastHeaders = Object.fromEntries(
      Object.entries(args[4] as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    return onRestResponse(...args);
  };
});
beforeEach(() => t.reset());
afterAll(async () => {
  await t.close();
});

describe('the fake exchange’s request weight', () => {
  it('weighs each endpoint as Binance does and tells the minute’s total on every answer', async () => {
    await t.exchange.fetchBalance(); // GET /fapi/v3/account: 5
    expect(usedHeader()).toBe(5);
    await t.exchange.fetchOrderBook(BTC, 10); // depth limit 10: 2
    expect(usedHeader()).toBe(7);
    await t.exchange.fapiPrivateGetOpenOrders(); // openOrders without a symbol: 40
    expect(usedHeader()).toBe(47);
    await t.exchange.fetchOHLCV(BTC, '1m', undefined, 50); // klines under 100: 1
    expect(usedHeader()).toBe(48);
    await t.exchange.fetchOHLCV(BTC, '1m', undefined, 1000); // klines up to 1000: 5
    expect(usedHeader()).toBe(53);
    expect(t.fake.weight.used()).toBe(53);
    t.advance(60_000); // the next calendar minute starts afresh
    await t.exchange.fetchTime();
    expect(usedHeader()).toBe(1);
    expect(t.fake.weight.total()).toBe(54);
  });

  it('answers 429 past the limit until the minute ends, and bans an IP that keeps coming', async () => {
    const info = (await t.exchange.fapiPublicGetExchangeInfo()) as { rateLimits: Array<{ limit: number }> };
    expect(info.rateLimits[0]!.limit).toBe(100);
    for (let i = 0; i < 19; i++) await t.exchange.fetchBalance(); // 1 + 19 × 5 = 96
    await expect(t.exchange.fetchBalance()).rejects.toThrow(/429 Too Many Requests.*-1003/);
    expect(t.fake.weight.refused()).toBe(1);
    expect(lastHeaders['x-mbx-used-weight-1m']).toBe('96');
    expect(Number(lastHeaders['retry-after'])).toBeGreaterThan(0);
    expect(Number(lastHeaders['retry-after'])).toBeLessThanOrEqual(60);
    // Small enough to fit, but sent during the wait: refused twice, then the IP is banned.
    for (let i = 0; i < 2; i++) await expect(t.exchange.fetchTime()).rejects.toThrow(/429 Too Many Requests/);
    expect(t.fake.faults.bansAnswered()).toBe(0);
    await expect(t.exchange.fetchTime()).rejects.toThrow(/418 .*IP banned until/);
    expect(t.fake.faults.bansAnswered()).toBe(1);
    expect(t.fake.weight.refused()).toBe(3);
  });
});

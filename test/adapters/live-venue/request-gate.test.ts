/**
 * The request gate (src/adapters/live-venue/request-gate.ts) on a real ccxt binanceusdm talking to
 * the fake exchange on loopback: after a 429 nothing at all is sent until its Retry-After has passed,
 * after a 418 nothing until the ban's end, however long the exchange says (no 5-minute cap), timed
 * on the monotonic clock; the fake's request log proves nothing left. A ban stands until the exchange
 * answers again after its end.
 */
import ccxt from 'ccxt';
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failureKind } from '../../../src/adapters/live-venue/exchange-errors.js';
import { gateRequests, RequestWithheldError } from '../../../src/adapters/live-venue/request-gate.js';
import type { RequestGate } from '../../../src/adapters/live-venue/request-gate.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';

const BTC = 'BTC/USDT:USDT';
let t: TradingFake;
let mono = 0;
let gate: RequestGate;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000 });
  await t.exchange.loadMarkets();
  // One gate for the file: it hooks the client's transport once, as the trading process does.
  gate = gateRequests(t.exchange, { monotonic: () => mono, now: () => Date.now() });
});

beforeEach(async () => {
  t.reset();
  mono += 10_000_000; // past any hold an earlier test left
  await t.exchange.fetchTime(); // an answer: no ban stands
});

afterAll(async () => {
  await t.close();
});

/** Every kind of request the live venue makes: orders, cancels, account reads, market data. */
const everyKind = () => [
  t.exchange.fetchBalance(),
  t.exchange.fetchPositions([BTC]),
  t.exchange.fetchOpenOrders(BTC),
  t.exchange.fetchMyTrades(BTC),
  t.exchange.fetchTicker(BTC),
  t.exchange.fetchTime(),
  t.exchange.createOrder(BTC, 'market', 'buy', 0.01),
  t.exchange.cancelAllOrders(BTC),
];

/** How each of `requests` ended: the error's class, or 'answered'. */
async function outcomes(requests: Array<Promise<unknown>>): Promise<string[]> {
  const settled = await Promise.allSettled(requests);
  return settled.map((s) => (s.status === 'fulfilled' ? 'answered' : (s.reason as Error).constructor.name));
}

describe('the request gate', () => {
  it('after a 429 no request of any kind is sent until Retry-After has passed; refused ones are rate_limited', async () => {
    t.fake.rateLimit(1, 3);
    await expect(t.exchange.fetchBalance()).rejects.toThrow(ccxt.DDoSProtection);
    const sent = t.fake.calls.length;
    expect(await outcomes(everyKind())).toEqual(Array(8).fill('RequestWithheldError'));
    expect(t.fake.calls.length).toBe(sent);
    expect(gate.hold()).toMatchObject({ kind: 'rate_limited', remainingMs: 3_000 });
    const withheld = await t.exchange.fetchTime().catch((err: unknown) => err);
    expect(withheld).toBeInstanceOf(RequestWithheldError);
    expect(failureKind(withheld, ccxt)).toBe('rate_limited');
    expect((withheld as Error).message).toMatch(/not sent: the exchange asked to wait 3 s more \(429\)/);

    mono += 2_999;
    await expect(t.exchange.fetchTime()).rejects.toThrow(RequestWithheldError);
    mono += 1;
    expect(await t.exchange.fetchTime()).toEqual(expect.any(Number));
    expect(gate.hold()).toBeNull();
    expect(gate.ban()).toBeNull(); // a 429 is a pause, not a ban
  });

  it('a Retry-After longer than five minutes is followed as the exchange says', async () => {
    t.fake.rateLimit(1, 900);
    await expect(t.exchange.fetchBalance()).rejects.toThrow(ccxt.DDoSProtection);
    mono += 899_000;
    await expect(t.exchange.fetchBalance()).rejects.toThrow(RequestWithheldError);
    expect(gate.hold()?.remainingMs).toBe(1_000);
    mono += 1_000;
    expect(gate.hold()).toBeNull();
  });

  it('a 418 bans until its end: one request answered 418, none sent after; the ban stands until the exchange answers again', async () => {
    t.fake.faults.banFor(1_200); // 20 minutes
    await expect(t.exchange.fetchPositions([BTC])).rejects.toThrow(ccxt.DDoSProtection);
    expect(t.fake.faults.bansAnswered()).toBe(1);
    const sent = t.fake.calls.length;

    const ban = gate.ban();
    expect(ban).toMatch(/^the exchange banned this IP until (\S+) \(418, Retry-After 1200 s\): Way too many requests/);
    // The end named is the exchange's own (its body's epoch ms), on the fake's clock: 20 minutes on.
    const until = Date.parse(/until (\S+) /.exec(ban!)![1]!);
    const fakeStart = Date.UTC(2026, 0, 5, 12, 0, 1);
    expect(until - fakeStart).toBeGreaterThanOrEqual(1_200_000);
    expect(until - fakeStart).toBeLessThan(1_260_000);
    expect(gate.hold()).toMatchObject({ kind: 'banned', remainingMs: 1_200_000 });

    for (const step of [60_000, 600_000, 539_999]) {
      mono += step;
      expect(await outcomes(everyKind())).toEqual(Array(8).fill('RequestWithheldError'));
    }
    expect(t.fake.calls.length).toBe(sent);
    expect(t.fake.faults.bansAnswered()).toBe(1);

    // The ban's time has passed: requests may go, but the ban stands until one is answered.
    mono += 1;
    t.advance(1_200_000);
    expect(gate.hold()).toBeNull();
    expect(gate.ban()).toMatch(/^the exchange banned this IP until \S+ .*; the ban has ended, waiting for an answer/);
    expect(await t.exchange.fetchTime()).toEqual(expect.any(Number));
    expect(gate.ban()).toBeNull();
    expect(t.fake.faults.bansAnswered()).toBe(1);
  });

  it('a 418 answered again after the ban ended (the exchange extended it) bans again', async () => {
    t.fake.faults.banFor(60);
    await expect(t.exchange.fetchTime()).rejects.toThrow(ccxt.DDoSProtection);
    mono += 60_000;
    t.fake.faults.banFor(120); // escalated: the next request meets a longer ban
    await expect(t.exchange.fetchTime()).rejects.toThrow(ccxt.DDoSProtection);
    expect(gate.ban()).toMatch(/Retry-After 120 s/);
    expect(gate.hold()).toMatchObject({ kind: 'banned', remainingMs: 120_000 });
  });

  it('without Retry-After, a 418 holds until the end its body names (the exchange’s epoch ms), timed on the monotonic clock', async () => {
    // A transport stub: the gate sees what ccxt's would hand it, an answer with no Retry-After header.
    let wall = 1_700_000_000_000;
    let m = 0;
    const sent: string[] = [];
    const stub = {
      fetch: async (url: string) => void sent.push(url),
      onRestResponse: (
        _status: number,
        _text: string,
        _url: string,
        _method: string,
        _headers: unknown,
        body: unknown,
      ) => String(body),
    };
    const stubGate = gateRequests(stub as unknown as Exchange, { monotonic: () => m, now: () => wall });
    const hooked = stub as unknown as typeof stub;
    hooked.onRestResponse(
      418,
      "I'm a teapot",
      'https://fapi.binance.com/fapi/v2/account',
      'GET',
      {},
      JSON.stringify({ code: -1003, msg: `Way too much request weight used; IP banned until ${wall + 900_000}.` }),
    );
    expect(stubGate.ban()).toBe(
      'the exchange banned this IP until 2023-11-14T22:28:20.000Z (418): Way too much request weight used; IP banned until 1700000900000.; no request is sent until then',
    );
    wall -= 3_600_000; // a wall clock stepped back an hour moves nothing
    m += 899_999;
    await expect(hooked.fetch('https://fapi.binance.com/fapi/v1/time')).rejects.toThrow(RequestWithheldError);
    m += 1;
    await hooked.fetch('https://fapi.binance.com/fapi/v1/time');
    expect(sent).toEqual(['https://fapi.binance.com/fapi/v1/time']);
  });
});

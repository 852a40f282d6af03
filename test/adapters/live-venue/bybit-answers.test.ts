/**
 * Bybit's rate-limit, ban and clock answers read through its profile (`readAnswer`) by the
 * exchange-neutral request gate and clock watch, on a real ccxt bybit against the Bybit fake, whose
 * faults answer in Bybit's words (test/support/fake-exchange/dialects/bybit/fault-replies.ts):
 * "too many visits" is HTTP 200 with retCode 10006 and holds every request until the reset the
 * answer names; "403, access too frequent" bans the IP (no Retry-After: Bybit's documented 10
 * minutes); a timestamp refused with retCode 10002 under HTTP 200 makes the clock watch re-measure.
 * Before the profile read them, the gate saw only HTTP 429/418 and the clock watch only HTTP ≥ 400.
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failureKind } from '../../../src/adapters/live-venue/exchange-errors.js';
import { watchExchangeClock } from '../../../src/adapters/live-venue/exchange-clock.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import type { RequestGate } from '../../../src/adapters/live-venue/request-gate.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { BYBIT_DIALECT } from '../../support/fake-exchange/dialects/bybit/index.js';
import { until } from '../../support/live-trading.js';

const BTC = 'BTC/USDT:USDT';
let t: TradingFake;
let mono = 0;
let gate: RequestGate;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000, dialect: BYBIT_DIALECT });
  await t.exchange.loadMarkets();
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

/** Requests of each kind the live venue makes: account reads, an order, a cancel, market data. */
const everyKind = () => [
  t.exchange.fetchBalance(),
  t.exchange.fetchPositions([BTC]),
  t.exchange.fetchOpenOrders(BTC),
  t.exchange.fetchTicker(BTC),
  t.exchange.createOrder(BTC, 'market', 'buy', 0.01),
  t.exchange.cancelAllOrders(BTC),
];

async function outcomes(requests: Array<Promise<unknown>>): Promise<string[]> {
  const settled = await Promise.allSettled(requests);
  return settled.map((s) => (s.status === 'fulfilled' ? 'answered' : (s.reason as Error).constructor.name));
}

describe('Bybit answers through its profile', () => {
  it('retCode 10006 under HTTP 200 holds every request until the reset it names; each held is counted and rate_limited', async () => {
    t.fake.rateLimit(1, 3);
    const first = await t.exchange.fetchBalance().catch((err: unknown) => err);
    expect(first).toBeInstanceOf(ccxt.RateLimitExceeded);
    expect(failureKind(first, ccxt)).toBe('rate_limited');
    expect(t.fake.rateLimited()).toBe(1);
    const sent = t.fake.calls.length;
    const heldBefore = gate.weight().held;

    expect(await outcomes(everyKind())).toEqual(Array(6).fill('RequestWithheldError'));
    expect(t.fake.calls.length).toBe(sent);
    expect(gate.hold()).toMatchObject({ kind: 'rate_limited', remainingMs: 3_000 });
    expect(gate.hold()?.reason).toBe('the exchange asked to wait 3 s more (retCode 10006)');
    expect(gate.ban()).toBeNull();
    const held = gate.weight().held;
    expect(held.read - heldBefore.read).toBe(4);
    expect(held.opening - heldBefore.opening).toBe(1);
    expect(held.close - heldBefore.close).toBe(1);
    expect(gate.weight().holding).toBe('all');

    mono += 2_999;
    await expect(t.exchange.fetchTime()).rejects.toThrow(/not sent/);
    mono += 1;
    expect(await t.exchange.fetchTime()).toEqual(expect.any(Number));
    expect(gate.hold()).toBeNull();
  });

  it('HTTP 403 bans the IP: nothing sent for Bybit’s 10 minutes, and the ban stands until an answer after them', async () => {
    t.fake.faults.banFor(900);
    const first = await t.exchange.fetchPositions([BTC]).catch((err: unknown) => err);
    expect(first).toBeInstanceOf(ccxt.RateLimitExceeded);
    expect(t.fake.faults.bansAnswered()).toBe(1);
    const sent = t.fake.calls.length;
    expect(gate.ban()).toMatch(
      /^the exchange banned this IP until \S+ \(403\): access too frequent; no request is sent until then$/,
    );
    expect(gate.hold()).toMatchObject({ kind: 'banned', remainingMs: 600_000 });

    mono += 599_999;
    expect(await outcomes(everyKind())).toEqual(Array(6).fill('RequestWithheldError'));
    expect(t.fake.calls.length).toBe(sent);

    // Past the 10 minutes the ban may still stand on the exchange (it said 15 here): a 403 again, held again.
    mono += 1;
    t.advance(600_000);
    await expect(t.exchange.fetchTime()).rejects.toThrow(ccxt.RateLimitExceeded);
    expect(gate.hold()).toMatchObject({ kind: 'banned', remainingMs: 600_000 });
    mono += 600_000;
    t.advance(600_000);
    expect(await t.exchange.fetchTime()).toEqual(expect.any(Number));
    expect(gate.ban()).toBeNull();
  });

  it('retCode 10002 under HTTP 200 (a timestamp refused) makes the clock watch measure ccxt’s time difference again', async () => {
    // The monotonic clock stands still: no periodic measurement falls due during the test.
    const clock = watchExchangeClock(t.exchange, { now: () => Date.now(), monotonic: () => 0, recvWindowMs: 10_000 });
    clock.skew(); // the first measurement is due at once
    await until(() => t.fake.calls.some((c) => c.url.startsWith('/v5/market/time')), 'the first measurement');
    await until(async () => ((await t.exchange.fetchTime()) ?? 0) > 0, 'measured');
    const good = t.exchange.options['timeDifference'] as number;
    // The client signs a minute ahead of the exchange: refused 10002.
    t.exchange.options['timeDifference'] = good - 60_000;
    await expect(t.exchange.fetchBalance()).rejects.toThrow(ccxt.InvalidNonce);
    // No period has passed (the monotonic clock stands): only the refusal makes a measurement due.
    clock.skew();
    await until(async () => {
      const answered = await t.exchange.fetchBalance().then(
        () => true,
        () => false,
      );
      return answered;
    }, 'signed requests accepted again');
    expect(Math.abs((t.exchange.options['timeDifference'] as number) - good)).toBeLessThan(1_000);
  });
});

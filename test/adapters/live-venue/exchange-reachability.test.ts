/**
 * Whether the exchange answers (src/adapters/live-venue/exchange-reachability.ts), judged from every
 * request a real ccxt binanceusdm sends to the fake exchange on loopback: an exchange that stops
 * answering (silence until the deadline, 5xx) is silent from the first unanswered request; one that
 * refuses (429, an unknown order) still answers; an answer ends the silence; while silent, or quiet
 * for long, asking for the silence also probes the exchange, so its return is seen when nothing else
 * calls it (a halted trading process runs no cycle).
 */
import ccxt from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { watchReachability } from '../../../src/adapters/live-venue/exchange-reachability.js';
import type { ExchangeReachability } from '../../../src/adapters/live-venue/exchange-reachability.js';
import { openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';

let t: TradingFake;
let clock = 0;
let watch: ExchangeReachability;

beforeAll(async () => {
  t = await openTradingFake({ deposit: 100_000 });
  await t.exchange.loadMarkets();
  // One watch for the file: it hooks the client's transport once, as the trading process does.
  watch = watchReachability(t.exchange, ccxt, { now: () => clock, probeIdleMs: 5_000 });
});

beforeEach(async () => {
  t.reset();
  t.fake.resume();
  t.exchange.timeout = 300;
  clock = 1_700_000_000_000;
  // A fresh start: one answer.
  await t.exchange.fetchTime();
});

afterAll(async () => {
  t.fake.resume();
  await t.close();
});

const failing = (p: Promise<unknown>) =>
  p.then(
    () => 'answered',
    (err: Error) => err.constructor.name,
  );

/** Waits (bounded) for a probe the watch started to end. */
async function probeDone(): Promise<void> {
  for (let i = 0; i < 200 && watch.probing(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(watch.probing()).toBe(false);
}

describe('exchange reachability', () => {
  it('an answering exchange is not silent', async () => {
    await t.exchange.fetchBalance();
    expect(watch.silence()).toBeNull();
  });

  it('silent from the request that went unanswered, as soon as its deadline says so', async () => {
    t.fake.hang();
    const sentAt = clock;
    expect(await failing(t.exchange.fetchBalance())).toBe('RequestTimeout');
    clock += 2_000;
    const silence = watch.silence();
    expect(silence?.forMs).toBe(clock - sentAt);
    expect(silence?.error).toMatch(/timed out/);
  });

  it('5xx is silence; a 429 or an unknown order is an answer', async () => {
    t.fake.faults.serverErrors(1, 503);
    await failing(t.exchange.fetchBalance());
    expect(watch.silence()).not.toBeNull();
    await probeDone(); // the probe the silence started answers
    expect(watch.silence()).toBeNull();

    t.fake.rateLimit(1, 1);
    expect(await failing(t.exchange.fetchBalance())).toBe('DDoSProtection');
    expect(watch.silence()).toBeNull();
    expect(await failing(t.exchange.fetchOrder('', 'BTC/USDT:USDT', { clientOrderId: 'nobody-placed-this' }))).toBe(
      'OrderNotFound',
    );
    expect(watch.silence()).toBeNull();
  });

  it('while silent, asking probes the exchange; its answer ends the silence', async () => {
    t.fake.hang();
    await failing(t.exchange.fetchBalance());
    expect(watch.silence()).not.toBeNull();
    expect(watch.probing()).toBe(true);
    await probeDone(); // still hung: the probe timed out too
    expect(watch.silence()).not.toBeNull();
    t.fake.resume();
    await probeDone(); // the ask above started another probe, which is answered
    expect(watch.silence()).toBeNull();
    expect(t.fake.calls.some((c) => c.url.startsWith('/fapi/v1/time'))).toBe(true);
  });

  it('a quiet exchange is probed once per idle period, not on every ask', async () => {
    t.fake.calls.length = 0;
    expect(watch.silence()).toBeNull();
    expect(watch.probing()).toBe(false);
    clock += 5_000;
    expect(watch.silence()).toBeNull();
    expect(watch.probing()).toBe(true);
    await probeDone();
    expect(watch.silence()).toBeNull();
    expect(watch.probing()).toBe(false);
    expect(t.fake.calls.filter((c) => c.url.startsWith('/fapi/v1/time'))).toHaveLength(1);
  });
});

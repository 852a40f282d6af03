/**
 * The request gate's weight budget (src/adapters/live-venue/weight-budget.ts, installed by
 * request-gate.ts) on a real ccxt binanceusdm against the fake exchange with a small REQUEST_WEIGHT
 * limit (100 a minute, told by its exchangeInfo): a burst of reads that would be answered 429 is
 * held within 80 % of the limit and nothing is refused by the exchange; closes and cancels still go
 * while reads are held; the next calendar minute frees the reads again.
 */
import type { Exchange } from 'ccxt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { failureKind } from '../../../src/adapters/live-venue/exchange-errors.js';
import { gateRequests, RequestWithheldError } from '../../../src/adapters/live-venue/request-gate.js';
import type { RequestGate } from '../../../src/adapters/live-venue/request-gate.js';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import { ccxtClient, openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import ccxt from 'ccxt';

const BTC = 'BTC/USDT:USDT';
let t: TradingFake;
let exchange: Exchange;
let gate: RequestGate;

beforeAll(async () => {
  t = await openTradingFake({ weightLimit: 100, deposit: 100_000 });
});
afterAll(async () => {
  await t.close();
});

/** The client's clock kept in step with the fake's (t.advance moves only t.exchange's). */
const sync = () => (exchange.options['timeDifference'] = t.exchange.options['timeDifference'] as number);
/** The exchange's time as the client knows it: the calendar minute the budget counts. */
const exchangeNow = () => Date.now() - (t.exchange.options['timeDifference'] as number);

beforeEach(async () => {
  t.reset();
  // A fresh client and gate per test: the budget is per minute, and each test starts the fake's anew.
  exchange = ccxtClient(t.fake.url);
  sync();
  gate = gateRequests(exchange, { monotonic: () => performance.now(), now: exchangeNow });
  await exchange.loadMarkets(); // exchangeInfo: the gate learns the limit (100)
});

async function outcomes(requests: Array<Promise<unknown>>): Promise<string[]> {
  const settled = await Promise.allSettled(requests);
  return settled.map((s) => (s.status === 'fulfilled' ? 'answered' : (s.reason as Error).constructor.name));
}

describe('the request weight budget', () => {
  it('holds a burst of reads within the budget: no 429 is answered, the held ones are rate_limited', async () => {
    const burst = await outcomes(Array.from({ length: 30 }, () => exchange.fetchBalance())); // 5 each
    expect(t.fake.weight.refused()).toBe(0);
    expect(t.fake.weight.used()).toBeLessThanOrEqual(80);
    expect(burst.filter((o) => o === 'answered').length).toBe(15); // 1 (exchangeInfo) + 15 × 5 = 76
    expect(burst.filter((o) => o === 'RequestWithheldError').length).toBe(15);
    const held = await exchange.fetchBalance().catch((err: unknown) => err);
    expect(held).toBeInstanceOf(RequestWithheldError);
    expect(failureKind(held, ccxt)).toBe('rate_limited');
    expect((held as Error).message).toMatch(
      /not sent: the request weight budget is spent .* the minute rolls in \d+ s/,
    );
  });

  it('closes and cancels still go while reads and openings are held; the next minute frees the reads', async () => {
    await exchange.createOrder(BTC, 'market', 'buy', 0.01);
    await outcomes(Array.from({ length: 30 }, () => exchange.fetchBalance()));
    await expect(exchange.fetchBalance()).rejects.toThrow(RequestWithheldError);
    await expect(exchange.createOrder(BTC, 'market', 'buy', 0.01)).rejects.toThrow(RequestWithheldError);

    const sent = t.fake.calls.length;
    await exchange.cancelAllOrders(BTC);
    const close = await exchange.createOrder(BTC, 'market', 'sell', 0.01, undefined, { reduceOnly: true });
    expect(close.status).toBe('closed');
    expect(t.fake.calls.slice(sent).map((c) => `${c.method} ${c.url.split('?')[0]}`)).toEqual([
      'DELETE /fapi/v1/allOpenOrders',
      'POST /fapi/v1/order',
    ]);
    expect(t.fake.weight.refused()).toBe(0);

    t.advance(60_000);
    sync();
    expect(await exchange.fetchBalance()).toBeDefined();
    expect(t.fake.weight.refused()).toBe(0);
  });

  it('a close through the live venue is never refused for our own budget: its reads go with it, and a flatten reads the account', async () => {
    const venue = new LiveVenue({
      exchange,
      errors: ccxt,
      gate,
      symbols: symbolMap([['BTCUSDT', BTC]]),
      now: () => Date.now(),
      sleep: async () => {},
    });
    t.fake.venue.setPosition('BTCUSDT', 0.02);
    await outcomes(Array.from({ length: 30 }, () => exchange.fetchBalance()));
    await expect(venue.account()).rejects.toThrow(RequestWithheldError); // a plain read is held
    // A flatten's read of the account, then its close (a look-up by client id, the order, its trades).
    const account = await venue.account(undefined, { forClose: true });
    expect(account.positions.map((p) => [p.symbol, p.qty])).toEqual([['BTCUSDT', 0.02]]);
    const close = await venue.submit(
      {
        clientOrderId: 'close-1',
        symbol: 'BTCUSDT',
        side: 'SELL',
        qty: 0.02,
        type: 'market',
        limitPrice: null,
        reduceOnly: true,
      },
      new Map(),
    );
    expect(close.order).toMatchObject({ status: 'filled', filledQty: 0.02 });
    expect(close.fills.reduce((sum, f) => sum + f.qty, 0)).toBeCloseTo(0.02, 12);
    expect(t.fake.weight.refused()).toBe(0);
  });

  it('tells what it holds: the used share, which requests are held, and how many of each kind', async () => {
    expect(gate.weight()).toMatchObject({ limit: 100, holding: 'none', held: { read: 0, opening: 0, close: 0 } });
    await outcomes(Array.from({ length: 30 }, () => exchange.fetchBalance()));
    await expect(exchange.createOrder(BTC, 'market', 'buy', 0.01)).rejects.toThrow(RequestWithheldError);
    const w = gate.weight();
    expect(w).toMatchObject({ limit: 100, holding: 'reads_and_openings' });
    expect(w.used).toBeGreaterThanOrEqual(76); // the burst's 76, and what the opening read before it was held
    expect(w.used).toBeLessThanOrEqual(80);
    expect(w.share).toBeCloseTo(w.used / 100, 12);
    expect(w.held).toEqual({ read: 15, opening: 1, close: 0 });
    // The next minute: nothing held any more (the counts are totals, they stay).
    t.advance(60_000);
    sync();
    await exchange.fetchBalance();
    expect(gate.weight()).toMatchObject({ holding: 'none', held: { read: 15, opening: 1, close: 0 } });
  });
});

/**
 * Issue 32, item 2: what the request weight budget holds back reaches /health and the metrics, as
 * the trading process publishes them. A real ccxt binanceusdm against the fake exchange with a small
 * REQUEST_WEIGHT limit (100 a minute), the live venue on the request gate, the real publisher writing
 * the heartbeat and the metrics text into a real SQLite store, and /health's check reading it back:
 * a burst of reads past 80 % shows as `reads_and_openings` held with the share used and the count of
 * held requests by kind, in /health's `venue.request_weight` and in the gauge and counter.
 */
import type { Exchange } from 'ccxt';
import ccxt from 'ccxt';
import { Compile } from 'typebox/compile';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { symbolMap } from '../../../src/adapters/live-venue/ccxt-mapping.js';
import { LiveVenue } from '../../../src/adapters/live-venue/live-venue.js';
import { gateRequests } from '../../../src/adapters/live-venue/request-gate.js';
import { TradingMetrics } from '../../../src/adapters/metrics/trading-metrics.js';
import { healthChecker, HealthSchema } from '../../../src/api/health.js';
import { createPublisher } from '../../../src/application/publisher.js';
import { TRADING_METRICS_KEY } from '../../../src/domain/runtime-documents.js';
import { readDocument } from '../../../src/ports/documents.js';
import { ccxtClient, openTradingFake } from '../../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../../support/fake-exchange/ccxt-client.js';
import { openTestStore } from '../../support/stores.js';
import type { TestStore } from '../../support/stores.js';

const BTC = 'BTC/USDT:USDT';
const valid = Compile(HealthSchema);
let t: TradingFake;
let store: TestStore | null = null;

beforeAll(async () => {
  t = await openTradingFake({ weightLimit: 100, deposit: 100_000 });
});
afterAll(async () => {
  await t.close();
});
afterEach(async () => {
  await store?.cleanup();
  store = null;
});

describe('the request weight budget, published', () => {
  it('shows in /health (venue.request_weight) and the metrics: the share used and the held requests by kind', async () => {
    t.reset();
    const exchange: Exchange = ccxtClient(t.fake.url);
    exchange.options['timeDifference'] = t.exchange.options['timeDifference'] as number;
    const exchangeNow = () => Date.now() - (exchange.options['timeDifference'] as number);
    const gate = gateRequests(exchange, { monotonic: () => performance.now(), now: exchangeNow });
    await exchange.loadMarkets(); // exchangeInfo: the limit (100)
    const venue = new LiveVenue({
      exchange,
      errors: ccxt,
      gate,
      symbols: symbolMap([['BTCUSDT', BTC]]),
      now: () => Date.now(),
      sleep: async () => {},
    });
    store = await openTestStore('sqlite');
    const metrics = new TradingMetrics();
    const clock = { now: () => Date.now() };
    const publisher = createPublisher({
      kv: store.store.kv,
      venue,
      clock,
      mode: 'live',
      heartbeatMs: 1_000,
      identity: { pid: process.pid, host: 'test' },
      previousCycle: 0,
      metrics,
      requestWeight: () => venue.requestWeight(),
    });
    const root = { state: 'running' as const, epoch: 1, lastCycle: null, halt: null };

    await publisher.heartbeat(root);
    const before = (await healthChecker(store.store, clock).check()).body;
    expect(before.components.venue.request_weight).toMatchObject({
      limit: 100,
      holding: 'none',
      held: { read: 0, opening: 0, close: 0 },
    });
    expect(before.components.venue.request_weight?.reason).toBeUndefined();

    // 30 balance reads of weight 5: 15 answered (76 used with exchangeInfo), the rest held.
    await Promise.allSettled(Array.from({ length: 30 }, () => exchange.fetchBalance()));
    await publisher.heartbeat(root);
    await publisher.metrics();

    const body = (await healthChecker(store.store, clock).check()).body;
    expect(valid.Errors(body)).toEqual([]);
    const weight = body.components.venue.request_weight!;
    expect(weight).toMatchObject({ limit: 100, holding: 'reads_and_openings' });
    expect(weight.used).toBeGreaterThanOrEqual(76); // the burst's, and the publisher's own reads
    expect(weight.used).toBeLessThanOrEqual(80);
    expect(weight.share).toBeCloseTo(weight.used / 100, 12);
    expect(weight.held).toEqual({ read: 15, opening: 0, close: 0 });
    expect(weight.reason).toContain('reads and openings (closes and cancels still go)');
    // No drift: the venue is ok, but nothing new trades while openings are held, so the answer is degraded.
    expect(body.components.venue.status).toBe('ok');
    expect(body.status).toBe('degraded');
    expect(body.reason).toContain(weight.reason);
    expect(before.status).not.toBe('degraded');

    const text = (await readDocument(store.store.kv, TRADING_METRICS_KEY))!.text;
    expect(text).toMatch(/^tcs_trading_request_weight_share\{[^}]*\} 0\.[78]\d*$/m);
    expect(text).toMatch(/^tcs_trading_requests_held_total\{kind="read"[^}]*\} 15$/m);
    expect(text).toMatch(/^tcs_trading_requests_held_total\{kind="opening"[^}]*\} 0$/m);
    // Published again with nothing new held: the counter does not count the same requests twice.
    await publisher.metrics();
    const again = (await readDocument(store.store.kv, TRADING_METRICS_KEY))!.text;
    expect(again).toMatch(/^tcs_trading_requests_held_total\{kind="read"[^}]*\} 15$/m);
    await exchange.close();
  });
});

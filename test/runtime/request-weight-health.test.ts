/**
 * Issue 32 (gaps), against the fake exchange: the request-weight budget's hold shows in /health and
 * the metrics. A live trading system (this process; the real live feed and venue through ccxt) polls
 * a fake whose REQUEST_WEIGHT limit is small, so its own reads pass 80 % of the minute's weight:
 * /health's `venue.request_weight` says reads and openings are held (degraded, with the reason), and
 * the metrics carry the used share and the held requests by kind.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, describe, expect, it } from 'vitest';
import { healthChecker } from '../../src/api/health.js';
import type { Health } from '../../src/api/health.js';
import { TRADING_METRICS_KEY } from '../../src/domain/runtime-documents.js';
import { systemClock } from '../../src/ports/clock.js';
import { readDocument } from '../../src/ports/documents.js';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { openLiveTrading, until } from '../support/live-trading.js';
import type { LiveTrading } from '../support/live-trading.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

let t: TradingFake | undefined;
let s: TestStore | undefined;
let trading: LiveTrading | undefined;

afterAll(async () => {
  await trading?.close();
  await s?.cleanup();
  await t?.close();
});

describe('the request weight budget holding requests', () => {
  it('is in /health (venue.request_weight, degraded) and in the metrics (used share, held by kind)', async () => {
    t = await openTradingFake({ deposit: 100_000, start: Date.now(), weightLimit: 400 });
    s = await openTestStore('sqlite');
    trading = await openLiveTrading(s.store, s.url, { ...liveEnvFor(t.fake.url), SYMBOLS: 'BTCUSDT' });
    const health = healthChecker(s.store, systemClock);
    let body: Health | undefined;
    await until(
      async () => {
        body = (await health.check()).body;
        // The hold is published as it starts, before the first read it holds is counted (a loaded CI
        // machine read /health in between): wait for both.
        const weight = body.components.venue.request_weight;
        return weight?.holding === 'reads_and_openings' && weight.held.read > 0;
      },
      '/health venue.request_weight holding reads and openings, a read held',
      30_000,
    );
    const weight = body!.components.venue.request_weight!;
    expect(weight.limit).toBe(400);
    expect(weight.held.read).toBeGreaterThan(0);
    expect(body!.status).toBe('degraded');
    expect(body!.reason).toMatch(/the exchange request weight is \d+ % of 400 a minute: reads and openings/);

    // The metrics as the trading process publishes them (the API appends this text to its /metrics).
    const published = async () => {
      const text = (await readDocument(s!.store.kv, TRADING_METRICS_KEY))?.text ?? '';
      const families = parsePrometheusTextFormat(text);
      const family = (name: string) =>
        (families.find((f) => f.name === name)?.metrics ?? []) as Array<{
          value: string;
          labels?: Record<string, string>;
        }>;
      const share = Number(family('tcs_trading_request_weight_share')[0]?.value ?? 0);
      const read = Number(family('tcs_trading_requests_held_total').find((m) => m.labels?.kind === 'read')?.value ?? 0);
      return { share, read };
    };
    await until(async () => (await published()).read > 0, 'the held reads counted in the published metrics');
    expect((await published()).share).toBeGreaterThan(0);
  }, 60_000);
});

/**
 * Issue 32, item 3, against the fake exchange: a live trading system (this process; the real live
 * feed and venue through ccxt) whose market data arrives older than FEED_STALE_MS says so — /health
 * `degraded` naming the symbol and its age, the gauges in the metrics, one `market_data_stale` line —
 * and says once that it ended when the data is fresh again. The data is made old the way an exchange
 * makes it: its book is stamped by its own clock, here 3 s behind ours (within the clock check's
 * limit), so every book is 3 s old when it arrives; the exchange's clock then catches up.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, describe, expect, it } from 'vitest';
import { healthChecker } from '../../src/api/health.js';
import type { Health } from '../../src/api/health.js';
import { systemClock } from '../../src/ports/clock.js';
import { openTradingFake } from '../support/fake-exchange/ccxt-client.js';
import type { TradingFake } from '../support/fake-exchange/ccxt-client.js';
import { liveEnvFor } from '../support/fake-exchange/live-env.js';
import { openLiveTrading, until } from '../support/live-trading.js';
import type { LiveTrading } from '../support/live-trading.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const LAG_MS = 3_000;

let t: TradingFake | undefined;
let s: TestStore | undefined;
let trading: LiveTrading | undefined;

afterAll(async () => {
  await trading?.close();
  await s?.cleanup();
  await t?.close();
});

describe('live market data too old to trade', () => {
  it('is /health degraded with the age, gauges and one line while books arrive 3 s old, and ends when fresh', async () => {
    t = await openTradingFake({ deposit: 100_000, start: Date.now() - LAG_MS });
    s = await openTestStore('sqlite');
    trading = await openLiveTrading(s.store, s.url, {
      ...liveEnvFor(t.fake.url),
      SYMBOLS: 'BTCUSDT',
      EXCHANGE_TIMEOUT_MS: '1000',
      FEED_STALE_MS: '1500',
    });
    const health = healthChecker(s.store, systemClock);
    let body: Health | undefined;
    await until(async () => {
      body = (await health.check()).body;
      return body.components.market_data.status === 'stale';
    }, '/health market_data stale');
    expect(body!.status).toBe('degraded');
    expect(body!.components.market_data).toMatchObject({ status: 'stale', limit_ms: 1_500 });
    const [btc] = body!.components.market_data.stale;
    expect(btc!.symbol).toBe('BTCUSDT');
    expect(btc!.age_ms).toBeGreaterThanOrEqual(LAG_MS);
    expect(body!.reason).toMatch(/market data too old to trade: BTCUSDT \d+ ms old \(limit FEED_STALE_MS 1500 ms\)/);

    const families = parsePrometheusTextFormat(await trading.system.metrics.text());
    const value = (name: string) =>
      Number((families.find((f) => f.name === name)?.metrics[0] as { value: string }).value);
    expect(value('tcs_trading_market_data_age_seconds')).toBeGreaterThanOrEqual(LAG_MS / 1000);
    expect(value('tcs_trading_market_data_stale')).toBe(1);

    // The exchange's clock catches up: its books are fresh again.
    t.advance(LAG_MS);
    await until(async () => (await health.check()).body.components.market_data.status === 'ok', 'market_data ok');
    const lines = trading.lines.filter((l) => l.event === 'market_data_stale');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ limit_ms: 1_500, stale: [{ symbol: 'BTCUSDT' }] });
    expect(lines[1]).toEqual({ event: 'market_data_stale', limit_ms: 1_500, stale: [] });
    expect((await health.check()).body.status).toBe('ok');
  }, 30_000);
});

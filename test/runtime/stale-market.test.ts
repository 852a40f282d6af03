/**
 * A cycle whose market data is too old to trade says so (issue 32, item 3): through the real trading
 * system on a SimulatedClock, with a feed that serves the synthetic market stamped as old as the test
 * asks (what a live feed does when its reads fall behind: the last snapshot with its own stamp).
 * While a symbol's data is older than FEED_STALE_MS at the cycle's time: /health `degraded` naming the
 * symbol and the age, the age and the count in the metrics, one `market_data_stale` line and one
 * warning when it starts, and one line (an empty list) and `ok` again when the data is fresh.
 */
import { pino } from 'pino';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import { marketDataRow } from '../../console/lib/market-data.js';
import { healthChecker } from '../../src/api/health.js';
import { createSyntheticFeed } from '../../src/adapters/market-data/synthetic-feed.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import type { MarketSnapshot, MarketView } from '../../src/domain/market.js';
import type { MarketFeed } from '../../src/ports/market-feed.js';
import { openTestTrading, PERMISSIVE_ENV, START } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

/** The synthetic market with each symbol's stamp set back by `lag[symbol]` ms (0 when absent). */
function laggingFeed(lag: Map<string, number>): MarketFeed {
  const inner = createSyntheticFeed({ instruments: parseInstruments(PERMISSIVE_ENV.SYMBOLS), seed: 1 });
  return {
    instruments: inner.instruments,
    async next(now: number): Promise<MarketView> {
      const view = await inner.next(now);
      return new Map(
        [...view].map(([symbol, s]): [string, MarketSnapshot] => [symbol, { ...s, ts: s.ts - (lag.get(symbol) ?? 0) }]),
      );
    },
  };
}

async function gauge(t: TestTrading, name: string, symbol?: string): Promise<number | undefined> {
  const family = parsePrometheusTextFormat(await t.system.metrics.text()).find((f) => f.name === name);
  const metric = (family?.metrics as Array<{ labels: Record<string, string>; value: string }> | undefined)?.find(
    (m) => symbol === undefined || m.labels.symbol === symbol,
  );
  return metric === undefined ? undefined : Number(metric.value);
}

describe('market data too old to trade', () => {
  let t: TestTrading | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('is /health degraded, a gauge and one line and warning when it starts, one line when it ends', async () => {
    const lag = new Map<string, number>();
    const log: Array<Record<string, unknown>> = [];
    t = await openTestTrading('sqlite', { CYCLE_SECONDS: '20', FEED_STALE_MS: '15000' }, undefined, {
      feed: laggingFeed(lag),
      log: pino({ level: 'info' }, { write: (line: string) => void log.push(JSON.parse(line)) }),
    });
    const health = healthChecker(t.store, t.clock);
    const check = async () => (await health.check()).body;

    // Cycle 1 at START: fresh data.
    const fresh = await check();
    expect(fresh.status).toBe('ok');
    expect(fresh.components.market_data).toEqual({ status: 'ok', limit_ms: 15_000, stale: [] });
    expect(await gauge(t, 'tcs_trading_market_data_age_seconds', 'BTCUSDT')).toBe(0);
    expect(await gauge(t, 'tcs_trading_market_data_stale')).toBe(0);

    // Cycles 2 and 3: BTC's data arrives 19 s old (the 18–20 s), ETH's 2 s old.
    lag.set('BTCUSDT', 19_000).set('ETHUSDT', 2_000);
    await t.advance(20_000);
    await t.advance(20_000);
    const stale = await check();
    expect(stale.status).toBe('degraded');
    expect(stale.components.market_data).toEqual({
      status: 'stale',
      limit_ms: 15_000,
      since: new Date(START + 20_000).toISOString(),
      stale: [{ symbol: 'BTCUSDT', age_ms: 19_000 }],
    });
    expect(stale.reason).toContain('market data too old to trade: BTCUSDT 19000 ms old (limit FEED_STALE_MS 15000 ms)');
    // The console's Health panel row says the same.
    expect(marketDataRow(stale.components.market_data)).toEqual({
      status: 'stale',
      detail: 'BTCUSDT 19000 ms old (limit 15000 ms) — openings refused LIQUIDITY_STALE',
    });
    expect(await gauge(t, 'tcs_trading_market_data_age_seconds', 'BTCUSDT')).toBe(19);
    expect(await gauge(t, 'tcs_trading_market_data_age_seconds', 'ETHUSDT')).toBe(2);
    expect(await gauge(t, 'tcs_trading_market_data_stale')).toBe(1);
    // Said once, not every cycle.
    expect(t.events('market_data_stale')).toEqual([
      { event: 'market_data_stale', limit_ms: 15_000, stale: [{ symbol: 'BTCUSDT', age_ms: 19_000 }] },
    ]);
    const warnings = log.filter((l) => l.level === 40 && String(l.msg).includes('market data'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toBe(
      'market data too old to trade: BTCUSDT 19000 ms old (limit FEED_STALE_MS 15000 ms); openings in it are refused LIQUIDITY_STALE until it is fresh',
    );

    // Cycle 4: fresh again.
    lag.clear();
    await t.advance(20_000);
    const recovered = await check();
    expect(recovered.status).toBe('ok');
    expect(recovered.components.market_data).toEqual({ status: 'ok', limit_ms: 15_000, stale: [] });
    expect(marketDataRow(recovered.components.market_data)).toEqual({
      status: 'ok',
      detail: 'every symbol within 15000 ms',
    });
    expect(await gauge(t, 'tcs_trading_market_data_stale')).toBe(0);
    expect(await gauge(t, 'tcs_trading_market_data_age_seconds', 'BTCUSDT')).toBe(0);
    expect(t.events('market_data_stale')).toEqual([
      { event: 'market_data_stale', limit_ms: 15_000, stale: [{ symbol: 'BTCUSDT', age_ms: 19_000 }] },
      { event: 'market_data_stale', limit_ms: 15_000, stale: [] },
    ]);
    expect(log.filter((l) => l.level === 40 && String(l.msg).includes('market data'))).toHaveLength(1);
  });
});

/**
 * Issue 32: /health's `market_data` component from the trading heartbeat, on a real SQLite store with
 * the clock injected: stale data makes the answer `degraded` naming each symbol, its age and the
 * limit; a heartbeat without the field (before the first cycle, an older release) or a stale heartbeat
 * is `unknown` and blames nothing. Every answer fits the documented schema. The event stream sends a
 * `health` event when the data goes stale even while the answer was already `degraded` for another
 * cause (the console's row must not wait for an unrelated change).
 */
import { Compile } from 'typebox/compile';
import { afterEach, describe, expect, it } from 'vitest';
import { healthChecker, HealthSchema } from '../../src/api/health.js';
import type { Health } from '../../src/api/health.js';
import { HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import type { TradingHeartbeat } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';
import { openSse } from '../support/sse-reader.js';
import type { SseStream } from '../support/sse-reader.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const DEADLINE_MS = 5_000; // behaviour, not speed, on a loaded machine
const valid = Compile(HealthSchema);
const STALE: TradingHeartbeat['marketData'] = {
  limitMs: 15_000,
  since: T0 - 40_000,
  stale: [
    { symbol: 'BTCUSDT', ageMs: 19_500 },
    { symbol: 'ETHUSDT', ageMs: null },
  ],
};
const FAILING: TradingHeartbeat['failingAgents'] = [
  { agent: 'x', since: T0, lastErrorAt: T0, errors: 1, symbol: 'BTCUSDT', message: 'boom' },
];

describe("/health's market_data component", () => {
  let t: TestStore | null = null;
  let api: TestApi | null = null;
  let stream: SseStream | null = null;
  afterEach(async () => {
    await stream?.cancel();
    await api?.close();
    await t?.cleanup();
    t = api = stream = null;
  });

  /** A store with a heartbeat written at T0 (`marketData` as given, none when undefined), checked at `now`. */
  async function checkWith(marketData: TradingHeartbeat['marketData'], now = T0 + 1_000) {
    t ??= await openTestStore('sqlite');
    const beat = { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], ts: T0 };
    await writeDocument(t.store.kv, HEARTBEAT_KEY, marketData === undefined ? beat : { ...beat, marketData });
    const answer = await healthChecker(t.store, { now: () => now }, DEADLINE_MS).check();
    expect(answer.statusCode).toBe(200);
    expect(valid.Errors(answer.body)).toEqual([]);
    return answer.body;
  }

  it('stale: degraded, each symbol named with its age and the limit', async () => {
    const body = await checkWith(STALE);
    expect(body.components.market_data).toEqual({
      status: 'stale',
      limit_ms: 15_000,
      since: '2026-01-05T11:59:20.000Z',
      stale: [
        { symbol: 'BTCUSDT', age_ms: 19_500 },
        { symbol: 'ETHUSDT', age_ms: null },
      ],
    });
    expect(body.status).toBe('degraded');
    expect(body.reason).toBe(
      'market data too old to trade: BTCUSDT 19500 ms old, ETHUSDT of unknown age (limit FEED_STALE_MS 15000 ms); openings in them refused LIQUIDITY_STALE',
    );
  });

  it('fresh: ok with the limit', async () => {
    const body = await checkWith({ limitMs: 15_000, since: null, stale: [] });
    expect(body.components.market_data).toEqual({ status: 'ok', limit_ms: 15_000, stale: [] });
    expect(body.status).toBe('ok');
  });

  it('unknown without the field or without a fresh heartbeat, and blames nothing', async () => {
    const none = await checkWith(undefined);
    expect(none.components.market_data).toEqual({ status: 'unknown', stale: [] });
    expect(none.status).toBe('ok');
    const late = await checkWith(STALE, T0 + 10 * 60_000);
    expect(late.components.market_data).toEqual({ status: 'unknown', stale: [] });
  });

  it('the event stream sends health when the data goes stale while already degraded', async () => {
    api = await openTestApi('sqlite', {
      eventStream: { timings: { tailMs: 20, heartbeatMs: 50, machinesMs: 50, healthMs: 50, keepAliveMs: 15_000 } },
    });
    const beat = { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], intervalMs: 60_000, failingAgents: FAILING };
    await writeDocument(api.store.kv, HEARTBEAT_KEY, {
      ...beat,
      ts: Date.now(),
      marketData: { limitMs: 15_000, since: null, stale: [] },
    });
    const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
    stream = await openSse(`${base}/control/events`, api.auth);
    await stream.waitFor((m) => m.event === 'snapshot');
    await writeDocument(api.store.kv, HEARTBEAT_KEY, { ...beat, ts: Date.now(), marketData: STALE });
    const sent = await stream.waitFor(
      (m) => m.event === 'health' && (m.data as Health).components.market_data.status === 'stale',
    );
    expect(sent.data).toMatchObject({ status: 'degraded', components: { market_data: { status: 'stale' } } });
  });
});

/**
 * Issue 20: /health's `risk` component, the risk engine's trading state from the trading heartbeat,
 * on a real SQLite store with the clock injected. Each state as the heartbeat carries it; `reducing`
 * makes the answer `degraded` and says how it ends, `halted` alone does not (the kill shows in
 * `state`); a stale or missing heartbeat, or one without the field, is `unknown`. Every answer fits
 * the documented schema. The event stream sends a `health` event when only the risk state moved.
 */
import { Compile } from 'typebox/compile';
import { afterEach, describe, expect, it } from 'vitest';
import { healthChecker, HealthSchema } from '../../src/api/health.js';
import type { Health } from '../../src/api/health.js';
import { RISK_REDUCING_RESOLVE } from '../../src/api/risk-health.js';
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
const BREACH = 'drawdown 10.50% from peak NAV 11200.00 exceeds RISK_MAX_DRAWDOWN 10.00%';
const valid = Compile(HealthSchema);

describe("/health's risk component", () => {
  let t: TestStore | null = null;
  let api: TestApi | null = null;
  let stream: SseStream | null = null;
  afterEach(async () => {
    await stream?.cancel();
    await api?.close();
    await t?.cleanup();
    t = api = stream = null;
  });

  /** A store with a heartbeat written at T0 (`risk` as given, none when undefined), checked at `now`. */
  async function checkWith(risk: TradingHeartbeat['risk'], now = T0 + 1_000) {
    t ??= await openTestStore('sqlite');
    const beat = { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], ts: T0 }; // the sample carries no `risk`
    await writeDocument(t.store.kv, HEARTBEAT_KEY, risk === undefined ? beat : { ...beat, risk });
    const answer = await healthChecker(t.store, { now: () => now }, DEADLINE_MS).check();
    expect(answer.statusCode).toBe(200);
    expect(valid.Errors(answer.body)).toEqual([]);
    return answer.body;
  }

  it('active: shown with since and reason, and the answer stays ok', async () => {
    const body = await checkWith({ state: 'active', since: T0 - 5_000, reason: 'started' });
    expect(body.components.risk).toEqual({
      status: 'active',
      since: new Date(T0 - 5_000).toISOString(),
      reason: 'started',
    });
    expect(body.status).toBe('ok');
    expect(body.reason).toBeUndefined();
  });

  it('reducing: degraded, the reason names the breach and how it ends', async () => {
    const body = await checkWith({ state: 'reducing', since: T0 - 60_000, reason: BREACH });
    expect(body.components.risk).toEqual({
      status: 'reducing',
      since: '2026-01-05T11:59:00.000Z',
      reason: BREACH,
      resolve: RISK_REDUCING_RESOLVE,
    });
    expect(RISK_REDUCING_RESOLVE).toMatch(/RISK_DRAWDOWN_WINDOW.*tcs risk reset --reason TEXT/);
    expect(body.status).toBe('degraded');
    expect(body.reason).toBe(
      `risk engine reducing since 2026-01-05T11:59:00.000Z (${BREACH}): only closes pass; to end it: ${RISK_REDUCING_RESOLVE}`,
    );
  });

  it("halted: shown, not degraded by itself, and without the operator's kill reason (/health needs no key)", async () => {
    const body = await checkWith({ state: 'halted', since: null, reason: 'kill switch: exchange incident' });
    expect(body.components.risk).toEqual({
      status: 'halted',
      since: null,
      reason: 'trading is killed (the reason is in GET /control/status)',
    });
    expect(JSON.stringify(body)).not.toContain('exchange incident');
    expect(body.status).toBe('ok');
  });

  it('unknown without a fresh heartbeat: a stale one says nothing about the state now', async () => {
    const body = await checkWith({ state: 'reducing', since: T0 - 60_000, reason: BREACH }, T0 + 60_000);
    expect(body.components.trading_process.status).toBe('stale');
    expect(body.components.risk).toEqual({ status: 'unknown', since: null, reason: null });
    // Degraded for the stale heartbeat, not for a reducing state nobody can vouch for now.
    expect(body.status).toBe('degraded');
    expect(body.reason).not.toMatch(/risk engine/);
  });

  it('unknown without a heartbeat, and with one from a release that does not carry the field', async () => {
    t = await openTestStore('sqlite');
    const none = await healthChecker(t.store, { now: () => T0 }, DEADLINE_MS).check();
    expect(none.body.components.risk).toEqual({ status: 'unknown', since: null, reason: null });

    const old = await checkWith(undefined);
    expect(old.components.risk).toMatchObject({ status: 'unknown', since: null });
    expect(old.components.risk.reason).toMatch(/does not carry the risk state/);
    expect(old.status).toBe('ok'); // nothing known is wrong
  });

  it('the event stream sends health when only the risk state moved', async () => {
    api = await openTestApi('sqlite', {
      eventStream: { timings: { tailMs: 20, heartbeatMs: 50, machinesMs: 50, healthMs: 50, keepAliveMs: 15_000 } },
    });
    const beat = { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], intervalMs: 60_000 };
    const since = Date.now();
    await writeDocument(api.store.kv, HEARTBEAT_KEY, {
      ...beat,
      ts: Date.now(),
      risk: { state: 'active', since, reason: 'started' },
    });
    const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
    stream = await openSse(`${base}/control/events`, api.auth);
    await stream.waitFor((m) => m.event === 'snapshot');
    // `halted` leaves the overall status as it was: the risk state alone must move the stream.
    await writeDocument(api.store.kv, HEARTBEAT_KEY, {
      ...beat,
      ts: Date.now(),
      risk: { state: 'halted', since: since + 1, reason: 'kill switch' },
    });
    const sent = await stream.waitFor(
      (m) => m.event === 'health' && (m.data as Health).components.risk.status === 'halted',
    );
    expect(sent.data).toMatchObject({
      status: 'ok',
      components: { risk: { status: 'halted', reason: 'trading is killed (the reason is in GET /control/status)' } },
    });
  });
});

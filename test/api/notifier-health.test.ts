/**
 * Issue 35: the notifier's backlog on /health and /metrics, from the status document `tcs notify`
 * writes every round, on a real SQLite store with the clock injected. No document: `none`. A
 * delivery waiting more than a minute: `backlog`, with the target's last error. A document that stops
 * changing: `stale` after three rounds (5 s at least). None of these makes the answer degraded: a
 * notifier never blocks trading. /metrics gives the figures as timestamps for Prometheus to judge.
 */
import { Compile } from 'typebox/compile';
import { afterEach, describe, expect, it } from 'vitest';
import { healthChecker, HealthSchema } from '../../src/api/health.js';
import { HEARTBEAT_KEY, NOTIFIER_STATUS_KEY } from '../../src/domain/runtime-documents.js';
import type { NotifierStatus } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const DEADLINE_MS = 5_000; // behaviour, not speed, on a loaded machine
const valid = Compile(HealthSchema);

const waiting = (oldestPendingAt: number | null, ts = T0): NotifierStatus => ({
  ts,
  intervalMs: 500,
  backlog: oldestPendingAt === null ? 0 : 3,
  oldestPendingAt,
  targets: [{ id: 'a1b2', pending: oldestPendingAt === null ? 0 : 3, lastError: oldestPendingAt ? 'HTTP 500' : null }],
});

describe("/health's notifier component", () => {
  let t: TestStore | null = null;
  afterEach(async () => {
    await t?.cleanup();
    t = null;
  });

  async function open() {
    t = await openTestStore('sqlite');
    // A trading process beating at T0, so the answer is ok but for what the notifier says.
    await writeDocument(t.store.kv, HEARTBEAT_KEY, { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], ts: T0 });
    return t.store;
  }

  it('is none when no notifier ever ran on the store', async () => {
    const store = await open();
    const { body } = await healthChecker(store, { now: () => T0 + 1_000 }, DEADLINE_MS).check();
    expect(valid.Errors(body)).toEqual([]);
    expect(body.components.notifier).toMatchObject({ status: 'none', backlog: null, targets: [] });
  });

  it('is ok with a short wait, backlog past a minute naming the failing target, and never degrades the answer', async () => {
    const store = await open();
    let now = T0 + 1_000;
    const health = healthChecker(store, { now: () => now }, DEADLINE_MS);
    await writeDocument(store.kv, NOTIFIER_STATUS_KEY, waiting(T0 - 30_000));
    const soon = (await health.check()).body;
    expect(soon.components.notifier).toMatchObject({ status: 'ok', backlog: 3, oldest_pending_age_ms: 31_000 });
    expect(soon.status).toBe('ok');

    await writeDocument(store.kv, NOTIFIER_STATUS_KEY, waiting(T0 - 61_000, T0 + 500));
    now = T0 + 1_000;
    const late = (await health.check()).body;
    expect(valid.Errors(late)).toEqual([]);
    expect(late.components.notifier).toEqual({
      status: 'backlog',
      backlog: 3,
      oldest_pending_age_ms: 62_000,
      status_age_ms: 500,
      targets: [{ id: 'a1b2', pending: 3, last_error: 'HTTP 500' }],
    });
    expect(late.status).toBe('ok');
  });

  it('is stale when the document stops changing for three rounds (5 s at least), on the checking clock', async () => {
    const store = await open();
    let now = T0;
    const health = healthChecker(store, { now: () => now, monotonic: () => now }, DEADLINE_MS);
    await writeDocument(store.kv, NOTIFIER_STATUS_KEY, waiting(null, T0));
    expect((await health.check()).body.components.notifier.status).toBe('ok');
    now = T0 + 4_000;
    expect((await health.check()).body.components.notifier.status).toBe('ok');
    now = T0 + 6_000;
    expect((await health.check()).body.components.notifier).toMatchObject({ status: 'stale', status_age_ms: 6_000 });
    await writeDocument(store.kv, NOTIFIER_STATUS_KEY, waiting(null, T0 + 6_000));
    expect((await health.check()).body.components.notifier.status).toBe('ok');
  });
});

describe('GET /metrics: the notifier figures', () => {
  let api: TestApi | null = null;
  afterEach(async () => {
    await api?.close();
    api = null;
  });

  it('gives the backlog per target and the last round and oldest waiting event as unix seconds; zeros without a notifier', async () => {
    api = await openTestApi('sqlite');
    const scrape = async () => (await api!.app.inject({ method: 'GET', url: '/metrics' })).body;
    const before = await scrape();
    expect(before).toMatch(/^tcs_notify_last_round_timestamp_seconds\{process="api"\} 0$/m);
    expect(before).not.toMatch(/^tcs_notify_backlog\{/m);
    await writeDocument(api.store.kv, NOTIFIER_STATUS_KEY, waiting(T0 - 61_000));
    const after = await scrape();
    expect(after).toMatch(/^tcs_notify_backlog\{target="a1b2",process="api"\} 3$/m);
    expect(after).toMatch(new RegExp(`^tcs_notify_last_round_timestamp_seconds\\{process="api"\\} ${T0 / 1000}$`, 'm'));
    expect(after).toMatch(
      new RegExp(`^tcs_notify_oldest_pending_timestamp_seconds\\{process="api"\\} ${(T0 - 61_000) / 1000}$`, 'm'),
    );
  });
});

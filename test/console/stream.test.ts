/**
 * The console's stream reader (console/lib/stream.ts) against the real API on loopback (Node's
 * fetch is the browser's): it goes live, follows a control change, and when the API goes away and
 * comes back it reconnects by itself sending Last-Event-ID, so the change made while it was away is
 * replayed from the audit trail. A refused key stops it for good.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SseEvent } from '../../console/lib/sse.js';
import { runStream } from '../../console/lib/stream.js';
import type { StreamStatus } from '../../console/lib/stream.js';
import { createApi } from '../../src/api/create-api.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { TEST_SYMBOLS, openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

describe('console stream reader', () => {
  let t: TestApi | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await t?.close();
  });

  it('reconnects after the API restarts and gets what it missed through Last-Event-ID', async () => {
    t = await openTestApi('sqlite', { eventStream: { timings: { tailMs: 50 } } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const events: SseEvent[] = [];
    const statuses: StreamStatus[] = [];
    const abort = new AbortController();
    const running = runStream({
      key: t.key,
      url: `http://127.0.0.1:${port}/control/events`,
      signal: abort.signal,
      onEvent: (e) => events.push(e),
      onStatus: (s) => statuses.push(s),
    });
    closers.push(async () => {
      abort.abort();
      await running;
    });
    const controls = () =>
      events.filter((e) => e.event === 'control').map((e) => ({ id: e.id, ...JSON.parse(e.data) }));

    await vi.waitFor(() => expect(events[0]?.event).toBe('snapshot'), { timeout: 5_000 });
    await t.app.inject({ method: 'POST', url: '/control/pause', headers: t.auth, payload: { reason: 'first' } });
    await vi.waitFor(() => expect(controls().map((c) => c.state)).toEqual(['paused']), { timeout: 5_000 });
    const pausedId = Number(controls()[0]!.id);

    // The API goes away; meanwhile another API process on the same store resumes.
    await t.app.close();
    await vi.waitFor(() => expect(statuses).toContain('reconnecting'), { timeout: 5_000 });
    const second = await createApi({
      store: t.store,
      apiKeys: [t.key],
      instruments: parseInstruments(TEST_SYMBOLS),
      defaultMode: 'paper',
      controlRateLimit: 100,
      consoleRoot: null,
      eventStream: { timings: { tailMs: 50 } },
    });
    closers.push(() => second.close());
    await second.inject({ method: 'POST', url: '/control/resume', headers: t.auth, payload: { reason: 'while away' } });
    await second.listen({ host: '127.0.0.1', port });

    await vi.waitFor(() => expect(controls().map((c) => c.state)).toEqual(['paused', 'running']), { timeout: 10_000 });
    const resumed = controls()[1]!;
    expect(resumed.reason).toBe('while away');
    expect(Number(resumed.id)).toBeGreaterThan(pausedId);
    // The second connection's snapshot says it resumed from the id the reader had.
    const snapshots = events.filter((e) => e.event === 'snapshot').map((e) => JSON.parse(e.data));
    expect(snapshots).toHaveLength(2);
    expect(Number(snapshots[1].resumed_from)).toBeGreaterThanOrEqual(pausedId);
    expect(statuses.filter((s) => s === 'live')).toHaveLength(2);

    abort.abort();
    await running;
    expect(statuses.at(-1)).toBe('closed');
  });

  it('stops for good when the key is refused', async () => {
    t = await openTestApi('sqlite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const statuses: StreamStatus[] = [];
    await runStream({
      key: 'k'.repeat(43),
      url: `http://127.0.0.1:${port}/control/events`,
      signal: new AbortController().signal,
      onEvent: () => {},
      onStatus: (s) => statuses.push(s),
    });
    expect(statuses).toEqual(['connecting', 'refused']);
  });
});

/**
 * End to end, as an operator runs it (`tcs start`, both processes, each store): the six spec event
 * lines of a cycle appear in order with exactly their fields; pause stops the cycles and resume
 * restarts them; /health, /reports/decisions and the trading metrics in /metrics answer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { STORE_KINDS } from '../support/stores.js';
import { CYCLE_MS, openE2e, SPEC_EVENTS } from './harness.js';
import type { E2e } from './harness.js';

describe.each(STORE_KINDS)('trading on paper through tcs start on %s', (kind) => {
  let e: E2e | undefined;
  afterEach(async () => {
    await e?.close();
    e = undefined;
  });

  it('the six event lines in order; pause stops the cycles, resume restarts them', async () => {
    e = await openE2e(kind);
    await e.proc.waitFor(/"event":"cycle_end","cycle":2,/, 20_000);
    const all = e.lines();
    expect(all[0]).toEqual({ event: 'session_started', mode: 'paper', strategies: ['btc_always_long'] });
    const cycle1 = all.filter((l) => SPEC_EVENTS.includes(l.event)).slice(0, 5);
    expect(cycle1.map((l) => l.event)).toEqual(SPEC_EVENTS);
    expect(Object.keys(cycle1[0]!)).toEqual(['event', 'cycle', 'timestamp']);
    expect(Object.keys(cycle1[1]!)).toEqual(['event', 'agent', 'symbol', 'direction', 'confidence']);
    expect(Object.keys(cycle1[2]!)).toEqual(['event', 'symbol', 'size', 'token']);
    expect(Object.keys(cycle1[3]!)).toEqual(['event', 'symbol', 'side', 'qty', 'mode']);
    expect(Object.keys(cycle1[4]!)).toEqual(['event', 'cycle', 'duration_ms']);
    expect(cycle1[2]!.token).toMatch(/^hmac:[0-9a-f]{64}$/);

    expect((await e.call('POST', '/control/pause', { reason: 'e2e' })).status).toBe(200);
    await e.proc.waitFor(/"event":"control_changed","state":"paused"/);
    const paused = await vi.waitFor(
      async () => {
        const beat = await e!.heartbeat();
        expect(beat?.state).toBe('paused');
        return beat!;
      },
      { timeout: 5000, interval: 20 },
    );
    // The trading process itself lives through three cycle lengths while paused, and ends no cycle.
    const beats = await e.heartbeatsSpan(paused.pid, 3 * CYCLE_MS);
    for (const beat of beats) expect(beat).toMatchObject({ state: 'paused', lastCycle: paused.lastCycle });

    expect((await e.call('POST', '/control/resume')).status).toBe(200);
    // The trading process prints its lines in order on one stream, so a cycle started while paused
    // would come before the resume's control_changed line: wait for that line, then look between.
    const isChange = (state: string) => (l: { event: string; state?: unknown }) =>
      l.event === 'control_changed' && l.state === state;
    const pausedAt = e.lines().findIndex(isChange('paused'));
    const resumedAt = await vi.waitFor(
      () => {
        const at = e!.lines().findIndex((l, i) => i > pausedAt && isChange('running')(l));
        expect(at).toBeGreaterThan(pausedAt);
        return at;
      },
      { timeout: 5000, interval: 20 },
    );
    expect(
      e
        .lines()
        .slice(pausedAt, resumedAt)
        .filter((l) => l.event === 'cycle_start'),
    ).toEqual([]);
    // And after the resume, cycles run again.
    const restarted = () => e!.lines().slice(resumedAt);
    await vi.waitFor(() => expect(restarted().map((l) => l.event)).toContain('cycle_start'), { timeout: 5000 });
    const health = await (await fetch(`${e.base}/health`)).json();
    expect(health).toMatchObject({
      status: 'ok',
      state: 'running',
      components: { trading_process: { status: 'ok', mode: 'paper' } },
    });
    const decisions = (await (await e.call('GET', '/reports/decisions?limit=5')).json()) as unknown[];
    expect(decisions.length).toBeGreaterThan(0);
    // The trading process's metrics reach the API's /metrics with their own process label.
    const families = parsePrometheusTextFormat(await (await fetch(`${e.base}/metrics`)).text());
    const cycles = families.find((f) => f.name === 'tcs_trading_cycles_total');
    expect(cycles?.metrics.find((m) => m.labels?.outcome === 'completed')?.labels?.process).toBe('trading');
    expect(families.find((f) => f.name === 'tcs_http_requests_total')?.metrics[0]?.labels?.process).toBe('api');
  }, 60_000);
});

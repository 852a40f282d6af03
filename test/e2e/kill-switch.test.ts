/**
 * End to end: the kill switch over HTTP cancels every resting paper order; a SIGKILLed trading
 * process comes back (supervisor restart) with no position, order or decision lost, and a killed
 * system stays killed across that restart and submits nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import { STORE_KINDS } from '../support/stores.js';
import { CYCLE_MS, openE2e } from './harness.js';
import type { E2e } from './harness.js';
import { readDocument } from '../../src/ports/documents.js';

describe.each(STORE_KINDS)('kill switch and crash recovery on %s', (kind) => {
  let e: E2e | undefined;
  afterEach(async () => {
    await e?.close();
    e = undefined;
  });
  const portfolio = () => readDocument(e!.t.store.kv, PORTFOLIO_KEY);
  const someOrdersRest = () =>
    vi.waitFor(async () => expect((await portfolio())?.openOrders.length ?? 0).toBeGreaterThan(0), {
      timeout: 15_000,
      interval: 100,
    });

  it('cancels resting orders; a SIGKILLed trading process comes back with nothing lost and still killed', async () => {
    e = await openE2e(kind);
    await someOrdersRest(); // passive orders rest on the bid

    // SIGKILL mid-run: the supervisor restarts it; positions, orders and decisions survive.
    const before = await portfolio();
    const decisionsBefore = (await e.t.store.events.query({ kind: 'decision', limit: 1000 })).length;
    const victim = (await e.heartbeat())!.pid;
    process.kill(victim, 'SIGKILL');
    await vi.waitFor(async () => expect((await e!.heartbeat())?.pid).not.toBe(victim), {
      timeout: 15_000,
      interval: 100,
    });
    const after = await portfolio();
    for (const order of before!.openOrders) {
      const still = after!.openOrders.find((o) => o.clientOrderId === order.clientOrderId);
      const filled = after!.positions.some((p) => p.symbol === order.symbol);
      expect(still !== undefined || filled, `order ${order.clientOrderId}`).toBe(true);
    }
    for (const position of before!.positions) {
      expect(
        after!.positions.find((p) => p.symbol === position.symbol),
        position.symbol,
      ).toBeDefined();
    }
    const decisionsAfter = (await e.t.store.events.query({ kind: 'decision', limit: 1000 })).length;
    expect(decisionsAfter).toBeGreaterThanOrEqual(decisionsBefore);

    // Kill over HTTP: the trading process halts and cancels every resting order.
    await someOrdersRest();
    expect((await e.call('POST', '/control/kill-switch', { reason: 'e2e kill' })).status).toBe(200);
    await e.proc.waitFor(/"event":"orders_cancelled","reason":"kill/);
    await vi.waitFor(async () => expect((await portfolio())?.openOrders).toEqual([]), { timeout: 5000, interval: 50 });
    const submittedAtKill = e.count('order_submitted');
    const decisionsAtKill = (await e.t.store.events.query({ kind: 'decision', limit: 1000 })).length;

    // Killed survives a SIGKILL and restart of the trading process.
    const killedPid = (await e.heartbeat())!.pid;
    process.kill(killedPid, 'SIGKILL');
    await vi.waitFor(async () => expect((await e!.heartbeat())?.pid).not.toBe(killedPid), {
      timeout: 15_000,
      interval: 100,
    });
    const restarted = (await e.heartbeat())!;
    expect(restarted.state).toBe('killed');
    // The restarted process lives through three cycle lengths of its own clock and runs no cycle
    // (its heartbeats' last cycle stays put); what a cycle would leave in the store (a decision, a
    // resting order) is written before the heartbeat that follows it, and there is none.
    const beats = await e.heartbeatsSpan(restarted.pid, 3 * CYCLE_MS);
    for (const beat of beats) expect(beat).toMatchObject({ state: 'killed', lastCycle: restarted.lastCycle });
    expect((await e.t.store.events.query({ kind: 'decision', limit: 1000 })).length).toBe(decisionsAtKill);
    expect((await portfolio())?.openOrders).toEqual([]);
    expect(e.count('order_submitted')).toBe(submittedAtKill);
    expect((await e.call('POST', '/control/resume')).status).toBe(409);
    expect((await e.t.store.events.verify()).ok).toBe(true);
  }, 90_000);
});

/**
 * The drawdown circuit breaker pulls the same kill switch as the API: the store goes to killed
 * (audited as the breaker), the durable cancel command is queued, and the trading process stops.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

describe('drawdown circuit breaker', () => {
  let t: TestTrading | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('trips the kill switch through the store and queues the cancels', async () => {
    // Full-size market orders pay fees and half the spread, so NAV falls below its peak at once.
    t = await openTestTrading('sqlite', {
      ORDER_STYLE: 'market',
      RISK_FRACTION: '1',
      CIRCUIT_BREAKER_DRAWDOWN: '0.001',
    });
    for (let i = 0; i < 10 && t.system.state() !== 'killed'; i++) await t.advance(60_000);
    await vi.waitFor(() => expect(t!.system.state()).toBe('killed'), { timeout: 3000 });
    const record = await t.store.control.read();
    expect(record).toMatchObject({ state: 'killed', reason: expect.stringMatching(/^drawdown circuit breaker: /) });
    const [audit] = await t.store.events.query({ kind: 'control', limit: 1 });
    expect(audit?.body).toMatchObject({ event: 'control.kill', outcome: 'changed', actor: 'trading:circuit-breaker' });
    await vi.waitFor(
      async () => expect((await t!.store.commands.get(`kill-cancels-epoch-${record.epoch}`))?.status).toBe('done'),
      { timeout: 3000 },
    );
    const submitted = t.events('order_submitted').length;
    await t.advance(5 * 60_000);
    expect(t.events('order_submitted').length).toBe(submitted);
  });
});

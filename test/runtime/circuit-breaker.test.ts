/**
 * The drawdown circuit breaker pulls the same kill switch as the API: the store goes to killed
 * (audited as the breaker), the durable cancel command is queued, the trading process stops, and
 * every open position is closed reduce-only (a kill alone leaves them to the market).
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

  it('flattens every open position after the trip (the kill alone leaves them to the market)', async () => {
    t = await openTestTrading('sqlite', {
      ORDER_STYLE: 'market',
      RISK_FRACTION: '1',
      CIRCUIT_BREAKER_DRAWDOWN: '0.001',
    });
    const gross = async () => {
      const account = await t!.system.venue.account();
      return account.positions.reduce((sum, p) => sum + Math.abs(p.qty), 0);
    };
    for (let i = 0; i < 10 && t.system.state() !== 'killed'; i++) {
      expect(t.system.state()).toBe('running');
      await t.advance(60_000);
    }
    await vi.waitFor(() => expect(t!.system.state()).toBe('killed'), { timeout: 3000 });
    const { epoch } = await t.store.control.read();
    // The behaviour that matters: nothing is left open for the market to move.
    await vi.waitFor(
      async () => {
        await t!.system.settled();
        expect(await gross()).toBe(0);
      },
      { timeout: 3000 },
    );
    const flatten = await t.store.commands.get(`kill-flatten-epoch-${epoch}`);
    expect(flatten).toMatchObject({
      status: 'done',
      type: 'flatten',
      payload: { actor: 'trading:circuit-breaker', symbols: null },
      result: { status: 'flat', remaining: [] },
    });
    // The kill was recorded before the flatten was asked for (a kill is never delayed by it).
    const audit = await t.store.events.query({ limit: 1000 });
    const seqOf = (match: (body: Record<string, unknown>) => boolean) => audit.find((e) => match(e.body))?.seq ?? NaN;
    const killSeq = seqOf((b) => b.event === 'control.kill');
    const flattenSeq = seqOf((b) => b.call === 'flatten' && b.via === 'circuit_breaker');
    expect(killSeq).toBeLessThan(flattenSeq);
    // The closes are reduce-only orders that went through the one order path (their order lines).
    const closes = t.events('order_submitted').filter((e) => e.side === 'SELL');
    expect(closes.length).toBeGreaterThan(0);
    expect(t.events('flatten_completed')).toEqual([
      expect.objectContaining({
        event: 'flatten_completed',
        command_id: `kill-flatten-epoch-${epoch}`,
        status: 'flat',
      }),
    ]);
  });
});

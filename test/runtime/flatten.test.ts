/**
 * A flatten command through the whole actor system on a real store: its reduce-only closes are judged
 * and signed by the risk actor and submitted by the order manager (one order path, with its order
 * lines), while paused or killed; only the chosen symbols; a close the liquidity guard scales is
 * finished in later rounds; a repeat on a flat account completes with nothing to do.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import type { InspectionEvent } from 'xstate';
import { applyControl } from '../../src/application/control-transition.js';
import type { CommandPayload } from '../../src/domain/commands.js';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

const who = { actor: 'test', at: '2026-01-05T12:00:00.000Z' };

describe('flatten through the actor system', () => {
  let t: TestTrading | undefined;
  const seen: InspectionEvent[] = [];
  afterEach(async () => {
    await t?.close();
    t = undefined;
    seen.length = 0;
  });

  const open = async (env: Record<string, string> = {}) =>
    (t = await openTestTrading('sqlite', { ORDER_STYLE: 'market', ...env }, undefined, {
      inspect: (e) => seen.push(e),
    }));
  const positionOf = async (symbol: string) =>
    (await t!.system.venue.account()).positions.find((p) => p.symbol === symbol)?.qty ?? 0;
  const enterState = async (type: 'control.pause' | 'control.kill', state: 'paused' | 'killed') => {
    await applyControl(t!.store.control, { type, reason: 'test' }, who);
    await waitFor(t!.system.actor, (s) => s.context.state === state, { timeout: 5_000 });
    await t!.advance(0);
  };
  const flatten = async (id: string, symbols: CommandPayload<'flatten'>['symbols']) => {
    await t!.store.commands.enqueue({
      id,
      type: 'flatten',
      payload: { symbols, reason: 'test', actor: 'test' },
      enqueued_at: who.at,
    });
    await t!.system.pumpCommands();
    await t!.system.settled();
    const command = await t!.store.commands.get(id);
    expect(command?.status).toBe('done');
    return command!.result!;
  };
  /** The flatten's orders the risk actor judged, one entry per round. */
  const judgedRounds = (id: string) =>
    seen.filter(
      (e) =>
        e.type === '@xstate.event' &&
        (e.actorRef as { id?: string }).id === 'risk' &&
        e.event.type === 'risk.evaluate' &&
        (e.event as unknown as { orders: { clientOrderId: string }[] }).orders.some((o) =>
          o.clientOrderId.startsWith(`flt-${id}-`),
        ),
    );

  it('closes every position while paused, through risk and the order manager; a repeat has nothing to do', async () => {
    await open();
    const position = await positionOf('BTCUSDT');
    expect(position).toBeGreaterThan(0); // the first cycle bought
    await enterState('control.pause', 'paused');
    const submittedBefore = t!.events('order_submitted').length;

    const result = await flatten('flt-1', null);
    expect(result).toMatchObject({
      status: 'flat',
      symbols: null,
      remaining: [],
      closes: [{ symbol: 'BTCUSDT', side: 'SELL', qty: position, filled_qty: position, venue_status: 'filled' }],
    });
    expect(await positionOf('BTCUSDT')).toBe(0);
    expect(judgedRounds('flt-1')).toHaveLength(1);
    // Its order has the usual order lines; the flatten its own line and the command's.
    expect(t!.events('order_submitted').slice(submittedBefore)).toEqual([
      expect.objectContaining({ symbol: 'BTCUSDT', side: 'SELL', qty: position }),
    ]);
    expect(t!.events('flatten_completed')).toEqual([
      { event: 'flatten_completed', command_id: 'flt-1', status: 'flat', closed: ['BTCUSDT'], remaining: [] },
    ]);
    const [audit] = await t!.store.events.query({ kind: 'command_executed', limit: 1 });
    expect(audit?.body).toMatchObject({ command_id: 'flt-1', type: 'flatten', result: { status: 'flat' } });

    expect(await flatten('flt-2', null)).toMatchObject({ status: 'nothing', closes: [], remaining: [] });
    expect(judgedRounds('flt-2')).toHaveLength(0);
  });

  it('while killed, closes only the chosen symbols', async () => {
    await open();
    const position = await positionOf('BTCUSDT');
    await enterState('control.kill', 'killed');
    expect(await flatten('flt-eth', ['ETHUSDT'])).toMatchObject({ status: 'nothing' });
    expect(await positionOf('BTCUSDT')).toBe(position);
    expect(await flatten('flt-btc', ['BTCUSDT'])).toMatchObject({ status: 'flat', symbols: ['BTCUSDT'] });
    expect(await positionOf('BTCUSDT')).toBe(0);
  });

  it('a close the liquidity guard scales is finished in later rounds, never past flat', async () => {
    // Each cycle's buy fits a small share of the book; three of them make a position that does not.
    await open({ RISK_FRACTION: '1', RISK_MAX_DEPTH_FRACTION: '0.005' });
    for (let i = 0; i < 2; i++) await t!.advance(60_000);
    const position = await positionOf('BTCUSDT');
    await enterState('control.pause', 'paused');

    const result = await flatten('flt-big', null);
    expect(result).toMatchObject({ status: 'flat', remaining: [] });
    const closes = result.closes as Array<{ qty: number; side: string }>;
    expect(closes.length).toBeGreaterThan(1);
    expect(closes.every((c) => c.side === 'SELL' && c.qty < position)).toBe(true);
    expect(closes.reduce((sum, c) => sum + c.qty, 0)).toBeCloseTo(position, 9);
    expect(judgedRounds('flt-big')).toHaveLength(closes.length);
    expect(result.rounds).toBe(closes.length);
    expect(await positionOf('BTCUSDT')).toBe(0);
  });
});

/**
 * A deleverage command through the whole actor system on a real store: its reduce-only order is
 * judged and signed by the risk actor and submitted by the order manager like every other order (one
 * order path), also when killed; a venue failure leaves the command claimed and its lease retry
 * completes it once; a flat position completes with no order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import type { InspectionEvent } from 'xstate';
import { applyControl } from '../../src/application/control-transition.js';
import { COMMAND_LEASE_MS } from '../../src/application/command-pump.js';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';
import { deleveragePayload } from '../support/commands.js';

const who = { actor: 'test', at: '2026-01-05T12:00:00.000Z' };

describe('deleverage through the actor system', () => {
  let t: TestTrading | undefined;
  const seen: InspectionEvent[] = [];
  afterEach(async () => {
    await t?.close();
    t = undefined;
    seen.length = 0;
  });

  const open = async () =>
    (t = await openTestTrading('sqlite', { ORDER_STYLE: 'market' }, undefined, { inspect: (e) => seen.push(e) }));
  const btc = async () => (await t!.system.venue.account()).positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;
  const deleverage = async (id: string, reducePct: number) => {
    await t!.store.commands.enqueue({
      id,
      type: 'deleverage',
      payload: deleveragePayload('BTCUSDT', reducePct),
      enqueued_at: who.at,
    });
    await t!.system.pumpCommands();
  };
  const until = async (id: string, status: string) => {
    await t!.system.settled();
    const command = await t!.store.commands.get(id);
    expect(command?.status).toBe(status);
    return command;
  };
  /** Events the risk actor received. */
  const riskRequests = () =>
    seen.flatMap((e) => (e.type === '@xstate.event' && (e.actorRef as { id?: string }).id === 'risk' ? [e.event] : []));

  it('is judged by the risk actor and submitted reduce-only while killed, then completed once', async () => {
    await open();
    const position = await btc();
    expect(position).toBeGreaterThan(0); // the first cycle bought
    await applyControl(t!.store.control, { type: 'control.kill', reason: 'test' }, who);
    // The store's notification starts a read; the root is killed once that read has reached it.
    await waitFor(t!.system.actor, (s) => s.context.state === 'killed', { timeout: 5_000 });
    await t!.advance(0);

    await deleverage('dlv-1', 0.5);
    const done = await until('dlv-1', 'done');
    expect(done?.result).toMatchObject({ status: 'submitted', side: 'SELL', client_order_id: 'dlv-dlv-1' });
    expect(await btc()).toBeCloseTo(position - (done!.result!.qty as number), 10);
    const judged = riskRequests().filter(
      (e) =>
        e.type === 'risk.evaluate' &&
        (e as unknown as { orders: { clientOrderId: string }[] }).orders[0]?.clientOrderId === 'dlv-dlv-1',
    );
    expect(judged).toHaveLength(1);
    // The deleverage once; and the kill's cancels, which the trading process queued itself on entering
    // killed (this kill was written straight to the store, with no API to queue them).
    expect(t!.events('command_executed')).toEqual([
      { event: 'command_executed', command_id: 'kill-cancels-epoch-1', type: 'kill_cancels', status: 'done' },
      { event: 'command_executed', command_id: 'dlv-1', type: 'deleverage', status: 'submitted' },
    ]);
  });

  it('a venue failure leaves the command claimed; the retry after its lease completes it', async () => {
    await open();
    const venue = t!.system.venue;
    const realSubmit = venue.submit.bind(venue);
    let failures = 1;
    venue.submit = async (order, market) => {
      if (failures-- > 0) throw new Error('venue unreachable');
      return realSubmit(order, market);
    };
    await deleverage('dlv-retry', 1);
    await until('dlv-retry', 'claimed');
    expect(await btc()).toBeGreaterThan(0);

    t!.clock.increment(COMMAND_LEASE_MS + 1);
    await t!.system.pumpCommands();
    const done = await until('dlv-retry', 'done');
    expect(done?.result).toMatchObject({ status: 'submitted' });
    expect(await btc()).toBe(0);
  });

  it('completes with no order when there is no position', async () => {
    await open();
    await deleverage('dlv-all', 1);
    await until('dlv-all', 'done');
    await deleverage('dlv-again', 1);
    const done = await until('dlv-again', 'done');
    expect(done?.result).toMatchObject({ status: 'nothing', message: 'no open position in BTCUSDT' });
  });
});

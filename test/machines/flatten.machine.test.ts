// The flatten actor alone, with stand-ins for the risk engine and the order manager (systemIds `risk`
// and `oms`): round after round until nothing is left; `partial` — never hidden — when a position is
// still open after MAX_FLATTEN_ROUNDS, or when a close cannot be judged; `flat` and `nothing` otherwise.
// The real order path is covered in test/runtime/flatten.test.ts; these are the endings it cannot force.
import { describe, expect, it } from 'vitest';
import { createActor, enqueueActions, fromCallback, fromPromise, setup, SimulatedClock, waitFor } from 'xstate';
import type { AnyActorRef, AnyEventObject } from 'xstate';
import { flattenMachine, MAX_FLATTEN_ROUNDS } from '../../machines/flatten.machine.js';
import type { PreparedFlatten } from '../../machines/flatten.machine.js';
import type { CommandResult } from '../../machines/deleverage.machine.js';
import type { EvaluateRequest, SubmitRequest } from '../../machines/messages.js';
import type { CommandRecord } from '../../src/domain/commands.js';
import { account, approval, marketView, order, snapshot } from './support.js';

const command: CommandRecord = {
  id: 'flt-1',
  type: 'flatten',
  payload: { symbols: null, reason: 'drill', actor: 'test' },
  enqueued_at: '2026-01-01T00:00:00.000Z',
  attempts: 1,
} as CommandRecord;

type Respond = (event: AnyEventObject) => AnyEventObject;
const responder = fromCallback<AnyEventObject, { respond: Respond }>(({ input, receive }) => {
  receive((event) => (event as AnyEventObject & { replyTo: AnyActorRef }).replyTo.send(input.respond(event)));
});

/** Approves every close (or none), and the order manager fills every approval whole. */
const risk =
  (approve: boolean): Respond =>
  (e) => {
    const req = e as EvaluateRequest;
    return {
      type: 'risk.evaluated',
      cycle: 0,
      verdicts: req.orders.map((o) => ({
        order: o,
        decision: {
          approved: approve,
          checks: [
            {
              guard: 'drawdown',
              passed: approve,
              code: approve ? 'OK' : 'INVALID_ORDER',
              message: 'no market data for BTCUSDT',
            },
          ],
          impact: null,
        },
        approval: approve ? approval(o.clientOrderId, o) : null,
      })),
    };
  };
const oms: Respond = (e) => ({
  type: 'oms.submitted',
  cycle: 0,
  outcomes: (e as SubmitRequest).approvals.map((a) => ({
    clientOrderId: a.order.clientOrderId,
    status: 'submitted',
    venueStatus: 'filled',
    filledQty: a.order.qty,
    avgFillPrice: 100,
    duplicate: false,
  })),
});

async function run(
  prepare: (round: number) => PreparedFlatten | Promise<PreparedFlatten>,
  approve = true,
  omsReply: Respond = oms,
  clock?: SimulatedClock,
) {
  const results: CommandResult[] = [];
  const rounds: number[] = [];
  const flatten = flattenMachine.provide({
    actors: {
      prepare: fromPromise<PreparedFlatten, { command: CommandRecord; round: number }>(async ({ input }) => {
        rounds.push(input.round);
        return prepare(input.round);
      }),
      complete: fromPromise<void, { command: CommandRecord; result: CommandResult }>(async ({ input }) => {
        results.push(input.result);
      }),
    },
  });
  const parent = setup({ actors: { flatten, responder } }).createMachine({
    entry: enqueueActions(({ enqueue }) => {
      enqueue.spawnChild('responder', { id: 'risk', systemId: 'risk', input: { respond: risk(approve) } });
      enqueue.spawnChild('responder', { id: 'oms', systemId: 'oms', input: { respond: omsReply } });
      enqueue.spawnChild('flatten', { id: 'flatten', input: { command } });
    }),
  });
  const root = createActor(parent, clock ? { clock } : {}).start();
  const child = root.getSnapshot().children['flatten'] as AnyActorRef;
  if (clock) {
    // Time moves only when the test says: each failed round's wait (seconds at most) is passed in steps.
    for (let i = 0; i < 50 && child.getSnapshot().status !== 'done'; i++) {
      await new Promise((r) => setImmediate(r));
      clock.increment(250);
    }
  }
  await waitFor(child, (s) => s.status === 'done', { timeout: 2_000 });
  return { results, rounds, final: child.getSnapshot().value as string };
}

const prepared = (orders: PreparedFlatten['orders']): PreparedFlatten => ({
  orders,
  left: [],
  account: account(),
  market: marketView(snapshot('BTCUSDT', 100)),
  epoch: 1,
  now: 1_700_000_000_000,
});
const close = (round: number) =>
  order({ clientOrderId: `flt-1-1-${round}-BTCUSDT`, side: 'SELL', qty: 2, reduceOnly: true });

describe('the flatten actor: how it ends', () => {
  it('flat: a close in round 1, nothing left in round 2', async () => {
    const { results, rounds, final } = await run((round) => prepared(round === 1 ? [close(1)] : []));
    expect(final).toBe('done');
    expect(rounds).toEqual([1, 2]);
    expect(results).toEqual([expect.objectContaining({ status: 'flat', rounds: 1, remaining: [] })]);
  });

  it('nothing: no position from the start', async () => {
    const { results } = await run(() => prepared([]));
    expect(results).toEqual([expect.objectContaining({ status: 'nothing', rounds: 0, closes: [] })]);
  });

  it(`partial: a position still open after ${MAX_FLATTEN_ROUNDS} rounds is reported, with why, never hidden`, async () => {
    // A venue that fills nothing of it: the position is there every round.
    const { results, rounds } = await run((round) => prepared([close(round)]));
    expect(rounds).toHaveLength(MAX_FLATTEN_ROUNDS + 1);
    const [result] = results;
    expect(result).toMatchObject({ status: 'partial', rounds: MAX_FLATTEN_ROUNDS });
    expect((result as unknown as { closes: unknown[] }).closes).toHaveLength(MAX_FLATTEN_ROUNDS);
    expect((result as unknown as { remaining: unknown[] }).remaining).toEqual([
      { symbol: 'BTCUSDT', position_qty: 2, why: `still open after ${MAX_FLATTEN_ROUNDS} rounds` },
    ]);
  });

  it('partial: a close the risk engine cannot judge is reported with its reason, and nothing is submitted', async () => {
    const { results, rounds } = await run(() => prepared([close(1)]), false);
    expect(rounds).toEqual([1]);
    expect(results[0]).toMatchObject({
      status: 'partial',
      closes: [],
      remaining: [{ symbol: 'BTCUSDT', position_qty: 2, why: 'no market data for BTCUSDT' }],
    });
  });

  it('a round whose reads fail (a 503) is prepared again after a backoff of seconds, not left to the 30 s lease', async () => {
    const clock = new SimulatedClock();
    let tries = 0;
    const { results, final } = await run(
      async (round) => {
        if (++tries <= 2) throw new Error('503 Internal error');
        return prepared(round === 1 ? [close(1)] : []);
      },
      true,
      oms,
      clock,
    );
    expect(tries).toBe(4);
    expect(final).toBe('done');
    expect(results).toEqual([expect.objectContaining({ status: 'flat', remaining: [] })]);
  });

  it('a close not submitted (its token expired, the venue failed) is prepared and signed afresh; the other symbol is not held up', async () => {
    const clock = new SimulatedClock();
    const eth = (round: number) =>
      order({ clientOrderId: `flt-1-1-${round}-ETHUSDT`, symbol: 'ETHUSDT', side: 'BUY', qty: 3, reduceOnly: true });
    const submitted: string[] = [];
    // The first ETH close fails at the venue; BTC's goes through in the same round.
    const flaky: Respond = (e) => {
      const reply = oms(e) as AnyEventObject & { outcomes: Array<Record<string, unknown>> };
      reply.outcomes = reply.outcomes.map((o) => {
        const id = String(o['clientOrderId']);
        if (id === 'flt-1-1-1-ETHUSDT')
          return { clientOrderId: id, status: 'refused', code: 'SUBMIT_FAILED', message: '503 Internal error' };
        submitted.push(id);
        return o;
      });
      return reply;
    };
    const { results, rounds } = await run(
      (round) => prepared(round === 1 ? [close(1), eth(1)] : round === 2 ? [eth(2)] : []),
      true,
      flaky,
      clock,
    );
    expect(rounds).toEqual([1, 2, 3]);
    expect(submitted).toEqual(['flt-1-1-1-BTCUSDT', 'flt-1-1-2-ETHUSDT']);
    expect(results).toEqual([expect.objectContaining({ status: 'flat', remaining: [] })]);
  });
});

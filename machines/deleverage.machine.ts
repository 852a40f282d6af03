/**
 * One deleverage command, through the same order path as a cycle's orders (one path, no
 * shortcuts): prepare the reduce-only order from the live position → the risk engine checks and
 * signs it → the order manager verifies the token and submits → the command is completed with its
 * result. Reduce-only orders are allowed in every state, so this runs while running, paused or
 * killed. If a pause or kill moves the epoch between signing and the order manager's check, the
 * token is stale: the order is prepared and signed again (at most `maxAttempts` times). Any other
 * refusal or failure leaves the command claimed, so its lease expires and it is retried (at least
 * once; the venue is idempotent on the order's client id).
 */
import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { CommandRecord } from '../src/domain/commands.js';
import type { MarketView } from '../src/domain/market.js';
import type { OrderRequest } from '../src/domain/orders.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';
import type { EvaluatedReply, SubmittedReply } from './messages.js';
import { omsOf, riskOf } from './system.js';

export interface DeleverageInput {
  command: CommandRecord;
}

/** The prepared order with what the risk engine judges it on, or a result when there is nothing to send. */
export type PreparedDeleverage =
  | {
      kind: 'order';
      order: OrderRequest;
      account: AccountSnapshot;
      market: MarketView;
      /** The stored control epoch the order is signed for. */
      epoch: number;
      now: number;
    }
  | { kind: 'result'; result: CommandResult };

/** What the command queue records as the command's result. */
export type CommandResult = Record<string, unknown> & { status: string };

interface DeleverageContext {
  command: CommandRecord;
  attempt: number;
  /** The result so far; `pending` until the order was judged and submitted. */
  result: CommandResult;
}

type DeleverageEvent = EvaluatedReply | SubmittedReply;

export const deleverageMachine = setup({
  types: {} as { context: DeleverageContext; input: DeleverageInput; events: DeleverageEvent },
  actors: {
    // Supplied by the composition root with .provide(): reading the account, the market and the
    // stored epoch is I/O, and so is completing the command.
    prepare: fromPromiseDefault<PreparedDeleverage, { command: CommandRecord; attempt: number }>('prepare'),
    complete: fromPromiseDefault<void, { command: CommandRecord; result: CommandResult }>('complete'),
  },
  actions: {
    /** Lets the composition root forget the command as in flight (it may be claimed again). */
    settled: (_, _params: { commandId: string }) => {},
  },
  guards: {
    staleAndRetriable: ({ context, event }) =>
      event.type === 'oms.submitted' &&
      context.attempt < MAX_ATTEMPTS &&
      event.outcomes.some((o) => o.status === 'refused' && o.code === 'EPOCH_STALE'),
    submitted: ({ event }) => event.type === 'oms.submitted' && event.outcomes.every((o) => o.status === 'submitted'),
    approved: ({ event }) => event.type === 'risk.evaluated' && event.verdicts.every((v) => v.approval !== null),
  },
}).createMachine({
  id: 'deleverage',
  context: ({ input }) => ({ command: input.command, attempt: 1, result: { status: 'pending' } }),
  initial: 'preparing',
  states: {
    preparing: {
      invoke: {
        src: 'prepare',
        input: ({ context }) => ({ command: context.command, attempt: context.attempt }),
        onDone: [
          {
            guard: ({ event }) => event.output.kind === 'result',
            target: 'completing',
            actions: assign({
              result: ({ context, event }) => (event.output.kind === 'result' ? event.output.result : context.result),
            }),
          },
          {
            target: 'checking',
            actions: [
              assign({ result: ({ event }) => pendingResult(event.output) }),
              // The request is built on the transition that carries the prepared order.
              sendTo(
                ({ system }) => riskOf(system),
                ({ event, self }) => {
                  const prepared = event.output as Extract<PreparedDeleverage, { kind: 'order' }>;
                  return {
                    type: 'risk.evaluate' as const,
                    cycle: 0,
                    orders: [prepared.order],
                    account: prepared.account,
                    market: prepared.market,
                    epoch: prepared.epoch,
                    now: prepared.now,
                    replyTo: self,
                  };
                },
              ),
            ],
          },
        ],
        onError: 'failed',
      },
    },
    checking: {
      on: {
        'risk.evaluated': [
          {
            guard: 'approved',
            target: 'submitting',
            actions: sendTo(
              ({ system }) => omsOf(system),
              ({ event, self }) => ({
                type: 'oms.submit' as const,
                purpose: 'command' as const,
                cycle: 0,
                approvals: event.verdicts.flatMap((v) => (v.approval ? [v.approval] : [])),
                replyTo: self,
              }),
            ),
          },
          {
            target: 'completing',
            actions: assign({
              result: ({ event }) => ({
                status: 'denied',
                checks: event.verdicts.flatMap((v) =>
                  v.decision.checks
                    .filter((c) => !c.passed)
                    .map((c) => ({ guard: c.guard, code: c.code, value: c.value, limit: c.limit })),
                ),
              }),
            }),
          },
        ],
      },
    },
    submitting: {
      on: {
        'oms.submitted': [
          {
            guard: 'staleAndRetriable',
            target: 'preparing',
            actions: assign({ attempt: ({ context }) => context.attempt + 1 }),
          },
          {
            guard: 'submitted',
            target: 'completing',
            actions: assign({ result: ({ context, event }) => submittedResult(context.result, event) }),
          },
          { target: 'failed' },
        ],
      },
    },
    completing: {
      invoke: {
        src: 'complete',
        input: ({ context }) => ({ command: context.command, result: context.result }),
        onDone: 'done',
        onError: 'failed',
      },
    },
    done: {
      type: 'final',
      entry: { type: 'settled', params: ({ context }) => ({ commandId: context.command.id }) },
    },
    /** Not completed: the command stays claimed and is retried once its lease expires. */
    failed: {
      type: 'final',
      entry: { type: 'settled', params: ({ context }) => ({ commandId: context.command.id }) },
    },
  },
});

const MAX_ATTEMPTS = 3;

/** The order's identity, before the venue has seen it. */
function pendingResult(prepared: PreparedDeleverage): CommandResult {
  if (prepared.kind === 'result') return prepared.result;
  const { order } = prepared;
  return { status: 'pending', client_order_id: order.clientOrderId, side: order.side, qty: order.qty };
}

function submittedResult(pending: CommandResult, event: SubmittedReply): CommandResult {
  const [outcome] = event.outcomes;
  if (outcome?.status !== 'submitted') return { ...pending, status: 'failed' };
  return {
    ...pending,
    status: outcome.venueStatus === 'rejected' ? 'rejected' : 'submitted',
    client_order_id: outcome.clientOrderId,
    venue_status: outcome.venueStatus,
    filled_qty: outcome.filledQty,
    reject_reason: outcome.rejectReason ?? null,
    duplicate: outcome.duplicate,
  };
}

/** A promise actor that refuses loudly until the composition root provides the real one. */
function fromPromiseDefault<T, I>(name: string) {
  return fromPromise<T, I>(async () => {
    throw new Error(`${name} was not provided`);
  });
}

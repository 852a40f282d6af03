/**
 * One flatten command, through the same order path as every other order (the deleverage actor's,
 * machines/deleverage.machine.ts): prepare reduce-only closes from the live positions → the risk
 * engine checks and signs them → the order manager verifies the tokens and submits → prepare again,
 * until nothing is left to close; then the command is completed with what was closed and what is left.
 * Reduce-only closes pass every risk limit and are submitted in every state (running, paused, killed).
 * Rounds exist because the liquidity guard may scale a close to what the book allows (LIQUIDITY_SCALED):
 * the next round closes the rest, from the position the venue now reports, so no round can overshoot.
 * At most MAX_ROUNDS rounds per claim; what is still open then is reported (`partial`), never hidden.
 * A stale epoch (a pause or kill between signing and submitting) is another round, signed afresh.
 * A round that fails — the reads failed (an exchange answering 503), or a close was not submitted (its
 * token expired while it waited, the venue call failed) — is tried again after a backoff of its own
 * (RETRY_BACKOFF_MS, doubling to a cap): prepared from the live positions and signed afresh, so a close
 * is signed just before it is sent, and a symbol already closed is not sent again (one symbol's failure
 * never holds up the others' closes). Only after MAX_FLATTEN_RETRIES such failures in a row is the
 * command left claimed, for its lease to expire and the command to be retried.
 */
import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { CommandRecord } from '../src/domain/commands.js';
import type { FlattenLeftover } from '../src/domain/flatten.js';
import type { MarketView } from '../src/domain/market.js';
import type { OrderRequest } from '../src/domain/orders.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';
import type { CommandResult } from './deleverage.machine.js';
import type { EvaluatedReply, SubmittedReply } from './messages.js';
import { omsOf, riskOf } from './system.js';

export interface FlattenInput {
  command: CommandRecord;
}

/** One round's closes, with what the risk engine judges them on, and what cannot be closed. */
export interface PreparedFlatten {
  orders: OrderRequest[];
  left: FlattenLeftover[];
  account: AccountSnapshot;
  market: MarketView;
  /** The stored control epoch the orders are signed for. */
  epoch: number;
  now: number;
}

/** A close the order manager submitted. */
interface Close {
  symbol: string;
  side: string;
  qty: number;
  client_order_id: string;
  venue_status: string;
  filled_qty: number;
  reject_reason: string | null;
}

interface FlattenContext {
  command: CommandRecord;
  round: number;
  closes: Close[];
  /** Closes the risk engine could not judge (no market data), by symbol: reported, retried next round. */
  refused: Record<string, string>;
  /** The approved closes of the round in flight (at the size risk signed them for). */
  sent: OrderRequest[];
  result: CommandResult;
  /** Failed rounds in a row (reset by a round that submitted every close). */
  retries: number;
  /** Rounds that failed to submit: they do not count towards MAX_FLATTEN_ROUNDS (a storm is not a thin book). */
  failedRounds: number;
}

type FlattenEvent = EvaluatedReply | SubmittedReply;

/** Rounds per claim: a close scaled to a quarter of the book each round is done long before this. */
export const MAX_FLATTEN_ROUNDS = 20;
/** Failed rounds in a row before the command is left to its lease (about 2 minutes at the cap). */
const MAX_FLATTEN_RETRIES = 60;
/** The first retry's wait, doubled each failure up to RETRY_BACKOFF_CAP_MS: seconds, not a 30 s lease. */
const RETRY_BACKOFF_MS = 250;
const RETRY_BACKOFF_CAP_MS = 2_000;

export const flattenMachine = setup({
  types: {} as { context: FlattenContext; input: FlattenInput; events: FlattenEvent },
  actors: {
    // Supplied by the composition root with .provide(): reading positions, market and epoch is I/O,
    // and so is completing the command.
    prepare: fromPromiseDefault<PreparedFlatten, { command: CommandRecord; round: number }>('prepare'),
    complete: fromPromiseDefault<void, { command: CommandRecord; result: CommandResult }>('complete'),
  },
  actions: {
    /** Lets the composition root forget the command as in flight (it may be claimed again). */
    settled: (_, _params: { commandId: string }) => {},
  },
  delays: {
    backoff: ({ context }) => Math.min(RETRY_BACKOFF_CAP_MS, RETRY_BACKOFF_MS * 2 ** (context.retries - 1)),
  },
  guards: {
    retriesLeft: ({ context }) => context.retries < MAX_FLATTEN_RETRIES,
    nothingToSend: ({ event }) => (event as unknown as { output: PreparedFlatten }).output.orders.length === 0,
    outOfRounds: ({ context }) => context.round - context.failedRounds > MAX_FLATTEN_ROUNDS,
    someApproved: ({ event }) => event.type === 'risk.evaluated' && event.verdicts.some((v) => v.approval !== null),
    // Submitted, or refused only because the epoch moved on (a pause or kill): either way, next round.
    roundDone: ({ event }) =>
      event.type === 'oms.submitted' &&
      event.outcomes.every((o) => o.status === 'submitted' || o.code === 'EPOCH_STALE'),
  },
}).createMachine({
  id: 'flatten',
  context: ({ input }) => ({
    command: input.command,
    round: 1,
    closes: [],
    refused: {},
    sent: [],
    result: { status: 'pending' },
    retries: 0,
    failedRounds: 0,
  }),
  initial: 'preparing',
  states: {
    preparing: {
      invoke: {
        src: 'prepare',
        input: ({ context }) => ({ command: context.command, round: context.round }),
        onDone: [
          {
            guard: 'nothingToSend',
            target: 'completing',
            actions: assign({ result: ({ context, event }) => finalResult(context, event.output.left, []) }),
          },
          {
            guard: 'outOfRounds',
            target: 'completing',
            actions: assign({
              result: ({ context, event }) => finalResult(context, event.output.left, event.output.orders),
            }),
          },
          {
            target: 'checking',
            actions: sendTo(
              ({ system }) => riskOf(system),
              ({ event, self }) => ({
                type: 'risk.evaluate' as const,
                cycle: 0,
                orders: event.output.orders,
                account: event.output.account,
                market: event.output.market,
                epoch: event.output.epoch,
                now: event.output.now,
                replyTo: self,
              }),
            ),
          },
        ],
        onError: [
          {
            guard: 'retriesLeft',
            target: 'backingOff',
            actions: assign({ retries: ({ context }) => context.retries + 1 }),
          },
          { target: 'failed' },
        ],
      },
    },
    checking: {
      on: {
        'risk.evaluated': [
          {
            guard: 'someApproved',
            target: 'submitting',
            actions: [
              assign({
                refused: ({ event }) => refusals(event),
                sent: ({ event }) => event.verdicts.flatMap((v) => (v.approval ? [v.order] : [])),
              }),
              sendTo(
                ({ system }) => omsOf(system),
                ({ event, self }) => ({
                  type: 'oms.submit' as const,
                  purpose: 'command' as const,
                  cycle: 0,
                  approvals: event.verdicts.flatMap((v) => (v.approval ? [v.approval] : [])),
                  replyTo: self,
                }),
              ),
            ],
          },
          {
            // Nothing could be judged (no market data for any of them): report what is left.
            target: 'completing',
            actions: assign({
              refused: ({ event }) => refusals(event),
              result: ({ context, event }) =>
                finalResult(
                  { ...context, refused: refusals(event) },
                  [],
                  event.verdicts.map((v) => v.order),
                ),
            }),
          },
        ],
      },
    },
    submitting: {
      on: {
        'oms.submitted': [
          {
            guard: 'roundDone',
            target: 'preparing',
            actions: assign({
              closes: ({ context, event }) => [...context.closes, ...closesOf(context.sent, event)],
              round: ({ context }) => context.round + 1,
              retries: 0,
            }),
          },
          {
            // What was submitted counts; the rest is prepared again, from the live positions, after a wait.
            guard: 'retriesLeft',
            target: 'backingOff',
            actions: assign({
              closes: ({ context, event }) => [...context.closes, ...closesOf(context.sent, event)],
              round: ({ context }) => context.round + 1,
              retries: ({ context }) => context.retries + 1,
              failedRounds: ({ context }) => context.failedRounds + 1,
            }),
          },
          { target: 'failed' },
        ],
      },
    },
    /** A failed round waits (on the actor system's clock) before the next is prepared. */
    backingOff: {
      after: { backoff: 'preparing' },
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

/** The symbols whose close could not be judged this round, with the first guard's message. */
function refusals(event: EvaluatedReply): Record<string, string> {
  const refused: Record<string, string> = {};
  for (const v of event.verdicts) {
    if (v.approval === null) refused[v.order.symbol] = v.decision.checks.find((c) => !c.passed)?.message ?? 'refused';
  }
  return refused;
}

function closesOf(sent: readonly OrderRequest[], event: SubmittedReply): Close[] {
  return event.outcomes.flatMap((o) => {
    const order = sent.find((x) => x.clientOrderId === o.clientOrderId);
    if (o.status !== 'submitted' || !order) return [];
    return [
      {
        symbol: order.symbol,
        side: order.side,
        qty: order.qty,
        client_order_id: o.clientOrderId,
        venue_status: o.venueStatus,
        filled_qty: o.filledQty,
        reject_reason: o.rejectReason ?? null,
      },
    ];
  });
}

/**
 * `nothing`: no position to close from the start (a repeat of a done flatten); `flat`: every chosen
 * position closed; `partial`: something is still open, each with why (`remaining`).
 */
function finalResult(context: FlattenContext, left: FlattenLeftover[], unsent: OrderRequest[]): CommandResult {
  const remaining = [
    ...left,
    ...unsent.map((o) => ({
      symbol: o.symbol,
      position_qty: o.side === 'SELL' ? o.qty : -o.qty,
      why: context.refused[o.symbol] ?? `still open after ${MAX_FLATTEN_ROUNDS} rounds`,
    })),
  ];
  const status = remaining.length > 0 ? 'partial' : context.closes.length === 0 ? 'nothing' : 'flat';
  const { symbols, reason } =
    context.command.type === 'flatten' ? context.command.payload : { symbols: null, reason: '' };
  return { status, symbols, reason, rounds: context.round - 1, closes: context.closes, remaining };
}

/** A promise actor that refuses loudly until the composition root provides the real one. */
function fromPromiseDefault<T, I>(name: string) {
  return fromPromise<T, I>(async () => {
    throw new Error(`${name} was not provided`);
  });
}

/**
 * The order manager (OMS) as an actor: the one way out to the venue. Every venue mutation — a cycle's
 * or a command's submissions, and every cancel, whoever asked for it (a cancel-all or kill command, a
 * safety halt, the drawdown breaker, a halt's end) — is a job here, carried out one at a time by the
 * `executeJob` actor that the composition root supplies (src/application/order-execution.ts, the only
 * module that calls the venue's mutators). Two parallel regions:
 *  - mode: halted (initial, and while paused) ⇄ accepting (running) → stopped (killed; no way back).
 *  - work: one job at a time.
 * Outside `accepting`, submissions are refused at once. A pause or kill refuses every queued
 * submission; a submission already in flight is not torn away — the executor checks this machine's
 * mode synchronously right before each venue call, so it sends nothing more after the mode changed,
 * and its reply says truthfully which orders did reach the venue. Nothing approved before a pause
 * or kill is submitted after it. Cancels go first in line (resting orders must not wait behind
 * submissions): a safety halt's (`oms.safety`, which halts like a pause), a kill's (at once, and its
 * `kill_cancels` command completes with that cancel's result: one venue call, one audit entry) and any
 * other requested one (`oms.cancel`). Cancels and a
 * command's reduce-only submissions (deleverage, `purpose: 'command'`) run in every mode: they only
 * reduce risk.
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { AnyActorRef } from 'xstate';
import type { ApprovedOrder } from '../src/domain/orders.js';
import type { OrderRefusalCode } from '../src/domain/order-refusals.js';
import { killCancelsId } from '../src/domain/commands.js';
import type { CancelCommandRecord } from '../src/domain/commands.js';
import type { OrderManagerControl, SubmissionOutcome, SubmissionPurpose, SubmitRequest } from './messages.js';

export type OmsJob =
  | { kind: 'submit'; purpose: SubmissionPurpose; cycle: number; approvals: ApprovedOrder[]; replyTo: AnyActorRef }
  | CancelJob;

/** Cancel open orders of `symbols` (null: all). For a command, its completion is the job's audit entry. */
export interface CancelJob {
  kind: 'cancel';
  reason: string;
  symbols: readonly string[] | null;
  command: CancelCommandRecord | null;
  receipt: string | null;
  /**
   * Jobs with the same key are one cancel: the first reaches the venue, the later ones (the kill's
   * command after the kill's own first-in-line cancel) complete with its result. Null for none.
   */
  key: string | null;
}

/** The job that carries out a cancel-all or kill-cancels command. */
function commandCancel(command: CancelCommandRecord): CancelJob {
  const symbols = command.payload.instructions.map((i) => i.symbol);
  return { kind: 'cancel', reason: command.type, symbols, command, receipt: null, key: command.id };
}

export interface JobResult {
  /** For submit jobs: one outcome per approval. */
  outcomes: SubmissionOutcome[];
}

export type OmsMode = 'halted' | 'accepting' | 'stopped';

interface OmsContext {
  queue: OmsJob[];
  current: OmsJob | null;
}

type OmsEvent = SubmitRequest | OrderManagerControl;

const REFUSAL: Record<Exclude<OmsMode, 'accepting'>, { code: OrderRefusalCode; message: string }> = {
  halted: { code: 'TRADING_PAUSED', message: 'the order manager is halted (system paused): nothing is submitted' },
  stopped: { code: 'TRADING_KILLED', message: 'the order manager is stopped (system killed): nothing is submitted' },
};

function refusedOutcomes(approvals: ApprovedOrder[], why: { code: string; message: string }): SubmissionOutcome[] {
  return approvals.map((a) => ({ clientOrderId: a.order.clientOrderId, status: 'refused', ...why }));
}

export const orderManagerMachine = setup({
  types: {} as { context: OmsContext; events: OmsEvent },
  actors: {
    // Supplied by the composition root with .provide(); this default refuses loudly.
    executeJob: fromPromise<JobResult, { job: OmsJob }>(async () => {
      throw new Error('executeJob was not provided');
    }),
  },
  guards: {
    hasQueuedJob: ({ context }) => context.queue.length > 0,
    forCommand: ({ event }) => event.type === 'oms.submit' && event.purpose === 'command',
  },
  actions: {
    enqueueSubmit: assign({
      queue: ({ context, event }) =>
        event.type === 'oms.submit'
          ? [
              ...context.queue,
              {
                kind: 'submit',
                purpose: event.purpose,
                cycle: event.cycle,
                approvals: event.approvals,
                replyTo: event.replyTo,
              },
            ]
          : context.queue,
    }),
    /** A command's cancel: the kill's first in line, a cancel-all in the order it came. */
    enqueueCommand: assign({
      queue: ({ context, event }) => {
        if (event.type !== 'oms.command') return context.queue;
        const job = commandCancel(event.command);
        return event.command.type === 'kill_cancels' ? [job, ...context.queue] : [...context.queue, job];
      },
    }),
    /** A halt's or a requested cancel goes first: resting orders must not wait behind anything. */
    enqueueCancelFirst: assign({
      queue: ({ context, event }) => {
        const cancel = (reason: string, rest: Partial<CancelJob> = {}): CancelJob => ({
          kind: 'cancel',
          reason,
          symbols: null,
          command: null,
          receipt: null,
          key: null,
          ...rest,
        });
        const job =
          event.type === 'oms.safety'
            ? cancel(`halt: ${event.reason}`)
            : event.type === 'oms.cancel'
              ? cancel(event.reason, { symbols: event.symbols, receipt: event.receipt })
              : event.type === 'oms.kill' && event.epoch !== null
                ? cancel(`kill: ${event.reason}`, { key: killCancelsId(event.epoch) })
                : null;
        return job === null ? context.queue : [job, ...context.queue];
      },
    }),
    refuseSubmitNow: enqueueActions(({ event, enqueue }, params: { mode: Exclude<OmsMode, 'accepting'> }) => {
      if (event.type !== 'oms.submit') return;
      enqueue.sendTo(event.replyTo, {
        type: 'oms.submitted',
        cycle: event.cycle,
        outcomes: refusedOutcomes(event.approvals, REFUSAL[params.mode]),
      });
    }),
    /** Replies "refused" to every queued cycle submission and drops them; a command's stay queued. */
    refuseQueuedSubmits: enqueueActions(({ context, enqueue }, params: { mode: Exclude<OmsMode, 'accepting'> }) => {
      for (const job of context.queue) {
        if (job.kind === 'submit' && job.purpose === 'cycle')
          enqueue.sendTo(job.replyTo, {
            type: 'oms.submitted',
            cycle: job.cycle,
            outcomes: refusedOutcomes(job.approvals, REFUSAL[params.mode]),
          });
      }
      enqueue.assign({
        queue: ({ context: c }) => c.queue.filter((j) => j.kind !== 'submit' || j.purpose !== 'cycle'),
      });
    }),
    takeNextJob: assign(({ context }) => ({ current: context.queue[0] ?? null, queue: context.queue.slice(1) })),
    replyWithOutcomes: enqueueActions(({ context, enqueue }, params: { outcomes: SubmissionOutcome[] }) => {
      const job = context.current;
      if (job?.kind === 'submit')
        enqueue.sendTo(job.replyTo, { type: 'oms.submitted', cycle: job.cycle, outcomes: params.outcomes });
      enqueue.assign({ current: null });
    }),
  },
}).createMachine({
  id: 'oms',
  type: 'parallel',
  context: { queue: [], current: null },
  states: {
    mode: {
      initial: 'halted',
      states: {
        halted: {
          on: {
            'oms.resume': 'accepting',
            'oms.safety': { actions: 'enqueueCancelFirst' },
            'oms.kill': {
              target: 'stopped',
              actions: [{ type: 'refuseQueuedSubmits', params: { mode: 'stopped' } }, 'enqueueCancelFirst'],
            },
            'oms.submit': [
              { guard: 'forCommand', actions: 'enqueueSubmit' },
              { actions: { type: 'refuseSubmitNow', params: { mode: 'halted' } } },
            ],
          },
        },
        accepting: {
          on: {
            'oms.halt': { target: 'halted', actions: { type: 'refuseQueuedSubmits', params: { mode: 'halted' } } },
            'oms.safety': {
              target: 'halted',
              actions: [{ type: 'refuseQueuedSubmits', params: { mode: 'halted' } }, 'enqueueCancelFirst'],
            },
            'oms.kill': {
              target: 'stopped',
              actions: [{ type: 'refuseQueuedSubmits', params: { mode: 'stopped' } }, 'enqueueCancelFirst'],
            },
            'oms.submit': { actions: 'enqueueSubmit' },
          },
        },
        stopped: {
          on: {
            'oms.kill': { actions: 'enqueueCancelFirst' },
            'oms.safety': { actions: 'enqueueCancelFirst' },
            'oms.submit': [
              { guard: 'forCommand', actions: 'enqueueSubmit' },
              { actions: { type: 'refuseSubmitNow', params: { mode: 'stopped' } } },
            ],
          },
        },
      },
    },
    work: {
      initial: 'idle',
      states: {
        idle: { always: { guard: 'hasQueuedJob', target: 'busy' } },
        busy: {
          entry: 'takeNextJob',
          invoke: {
            src: 'executeJob',
            input: ({ context }) => ({ job: context.current! }),
            onDone: {
              target: 'idle',
              actions: { type: 'replyWithOutcomes', params: ({ event }) => ({ outcomes: event.output.outcomes }) },
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'replyWithOutcomes',
                params: ({ context, event }) => ({
                  outcomes:
                    context.current?.kind === 'submit'
                      ? refusedOutcomes(context.current.approvals, {
                          code: 'SUBMIT_FAILED',
                          message: String((event.error as Error)?.message ?? event.error),
                        })
                      : [],
                }),
              },
            },
          },
        },
      },
    },
  },
  on: {
    'oms.command': { actions: 'enqueueCommand' },
    'oms.cancel': { actions: 'enqueueCancelFirst' },
  },
});

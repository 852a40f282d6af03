/**
 * The order manager (OMS) as an actor. Two parallel regions:
 *  - mode: halted (initial, and while paused) ⇄ accepting (running) → stopped (killed; no way back).
 *  - work: one job at a time (submit a cycle's approvals, cancel all, execute a queued command)
 *    through the `executeJob` actor that the composition root supplies (the venue I/O lives there).
 * Outside `accepting`, submissions are refused at once. A pause or kill refuses every queued
 * submission; a submission already in flight is not torn away — the executor checks this machine's
 * mode synchronously right before each venue call, so it sends nothing more after the mode changed,
 * and its reply says truthfully which orders did reach the venue. Nothing approved before a pause
 * or kill is submitted after it. A kill also queues a cancel of every open order, first in line; so
 * does a safety halt (`oms.safety`: the store or the control plane was lost), which halts like a pause.
 * Commands (cancel-all, the kill's cancels) and a command's reduce-only submissions (deleverage,
 * `purpose: 'command'`) run in every mode: they only reduce risk.
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { AnyActorRef } from 'xstate';
import type { ApprovedOrder } from '../src/domain/orders.js';
import type { CommandRecord } from '../src/domain/commands.js';
import type { OrderManagerControl, SubmissionOutcome, SubmissionPurpose, SubmitRequest } from './messages.js';

export type OmsJob =
  | { kind: 'submit'; purpose: SubmissionPurpose; cycle: number; approvals: ApprovedOrder[]; replyTo: AnyActorRef }
  | { kind: 'cancel_all'; reason: string }
  | { kind: 'command'; command: CommandRecord };

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

const REFUSAL: Record<Exclude<OmsMode, 'accepting'>, { code: string; message: string }> = {
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
    enqueueCommand: assign({
      queue: ({ context, event }) =>
        event.type === 'oms.command' ? [...context.queue, { kind: 'command', command: event.command }] : context.queue,
    }),
    /** A kill's (or a safety halt's) cancels go first: resting orders must not wait behind anything. */
    enqueueCancelAllFirst: assign({
      queue: ({ context, event }) => [
        {
          kind: 'cancel_all',
          reason:
            event.type === 'oms.kill'
              ? `kill: ${event.reason}`
              : event.type === 'oms.safety'
                ? `halt: ${event.reason}`
                : 'kill',
        } as OmsJob,
        ...context.queue,
      ],
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
            'oms.safety': { actions: 'enqueueCancelAllFirst' },
            'oms.kill': {
              target: 'stopped',
              actions: [{ type: 'refuseQueuedSubmits', params: { mode: 'stopped' } }, 'enqueueCancelAllFirst'],
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
              actions: [{ type: 'refuseQueuedSubmits', params: { mode: 'halted' } }, 'enqueueCancelAllFirst'],
            },
            'oms.kill': {
              target: 'stopped',
              actions: [{ type: 'refuseQueuedSubmits', params: { mode: 'stopped' } }, 'enqueueCancelAllFirst'],
            },
            'oms.submit': { actions: 'enqueueSubmit' },
          },
        },
        stopped: {
          on: {
            'oms.kill': { actions: 'enqueueCancelAllFirst' },
            'oms.safety': { actions: 'enqueueCancelAllFirst' },
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
  },
});

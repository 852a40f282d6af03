/**
 * One trading cycle as a statechart (DESIGN.md §2): load the market → every strategy agent analyses
 * it → the arbiter selects → the allocator sizes → the risk engine checks and signs → the order
 * manager verifies and submits → the decision is recorded. Each step is a message to a child actor
 * found by systemId; I/O (market, store) happens only in the `loadMarket` and `recordDecision`
 * actors that the composition root supplies. If the stored control state moved since the cycle
 * began, it stops at once (`superseded`) and submits nothing. Every cycle that gets as far as a
 * result — completed, superseded, failed, or over its `cycleDeadline` — is recorded, so the
 * DecisionLog has an entry per cycle; only a cycle stopped from outside (pause, kill) has none.
 */
import { assign, enqueueActions, fromPromise, sendTo, setup } from 'xstate';
import type { ArbitrationResult } from '../src/domain/arbitration.js';
import type { Proposal } from '../src/domain/allocation.js';
import type { ControlRecord } from '../src/domain/control.js';
import type { MarketView } from '../src/domain/market.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';
import type { Signal } from '../src/domain/signal.js';
import type { EventObject } from 'xstate';
import type {
  AnalyseRequest,
  EvaluateRequest,
  EvaluatedReply,
  SelectRequest,
  SizeRequest,
  SubmitRequest,
  SelectedReply,
  SignalsReply,
  SizedReply,
  SubmissionOutcome,
  SubmittedReply,
  Verdict,
} from './messages.js';

export interface CycleInput {
  cycle: number;
  /** The control epoch the root was in when the cycle began. */
  epoch: number;
  /** systemIds of the strategy agent actors. */
  agentIds: string[];
}

export interface LoadedMarket {
  /** Epoch ms from the process clock when the market was read. */
  now: number;
  market: MarketView;
  account: AccountSnapshot;
  /** The control record re-read from the store at cycle start. */
  control: ControlRecord;
}

/** Everything the cycle learned; the recorder turns it into the DecisionLog entry. */
export interface CycleRecord {
  cycle: number;
  epoch: number;
  now: number | null;
  account: AccountSnapshot | null;
  replies: SignalsReply[];
  arbitration: ArbitrationResult | null;
  proposals: Proposal[];
  verdicts: Verdict[];
  outcomes: SubmissionOutcome[];
  outcome: 'completed' | 'superseded' | 'failed';
  error: string | null;
}

interface CycleContext extends CycleRecord {
  agentIds: string[];
  market: MarketView | null;
}

type CycleEvent = SignalsReply | SelectedReply | SizedReply | EvaluatedReply | SubmittedReply;

export const cycleMachine = setup({
  types: {} as { context: CycleContext; input: CycleInput; events: CycleEvent; output: CycleRecord },
  actors: {
    loadMarket: fromPromise<LoadedMarket, { cycle: number; epoch: number }>(async () => {
      throw new Error('loadMarket was not provided');
    }),
    recordDecision: fromPromise<void, CycleRecord>(async () => {
      throw new Error('recordDecision was not provided');
    }),
  },
  actions: {
    // Event lines; the composition root provides the writers.
    announceSignals: (_, _params: { signals: Signal[] }) => {},
    announceVerdicts: (_, _params: { verdicts: Verdict[] }) => {},
  },
  delays: {
    // A child that never answers must not stall trading silently.
    cycleDeadline: 30_000,
  },
  guards: {
    controlMoved: ({ context }, params: { control: ControlRecord }) =>
      params.control.state !== 'running' || params.control.epoch !== context.epoch,
    lastAgentReply: ({ context }) => context.replies.length + 1 >= context.agentIds.length,
    noAgents: ({ context }) => context.agentIds.length === 0,
  },
}).createMachine({
  id: 'cycle',
  context: ({ input }) => ({
    cycle: input.cycle,
    epoch: input.epoch,
    agentIds: input.agentIds,
    now: null,
    market: null,
    account: null,
    replies: [],
    arbitration: null,
    proposals: [],
    verdicts: [],
    outcomes: [],
    outcome: 'completed',
    error: null,
  }),
  initial: 'working',
  states: {
    working: {
      initial: 'loading',
      after: {
        cycleDeadline: {
          target: 'recording',
          actions: assign({
            outcome: 'failed' as const,
            error: 'cycle deadline exceeded: a step did not answer in time',
          }),
        },
      },
      states: {
        loading: {
          invoke: {
            src: 'loadMarket',
            input: ({ context }) => ({ cycle: context.cycle, epoch: context.epoch }),
            onDone: [
              {
                guard: { type: 'controlMoved', params: ({ event }) => ({ control: event.output.control }) },
                target: '#cycle.recording',
                actions: assign({ outcome: 'superseded' as const }),
              },
              {
                target: 'analysing',
                actions: assign(({ event }) => ({
                  now: event.output.now,
                  market: event.output.market,
                  account: event.output.account,
                })),
              },
            ],
            onError: {
              target: '#cycle.recording',
              actions: assign({
                outcome: 'failed' as const,
                error: ({ event }) => String((event.error as Error)?.message ?? event.error),
              }),
            },
          },
        },
        analysing: {
          always: { guard: 'noAgents', target: 'arbitrating' },
          entry: enqueueActions(({ context, system, self, enqueue }) => {
            for (const id of context.agentIds) {
              const request: AnalyseRequest = {
                type: 'agent.analyse',
                cycle: context.cycle,
                market: context.market!,
                replyTo: self,
              };
              enqueue.sendTo(system.get(id), request as unknown as EventObject);
            }
          }),
          on: {
            'agent.signals': [
              {
                guard: 'lastAgentReply',
                target: 'arbitrating',
                actions: [
                  assign({ replies: ({ context, event }) => [...context.replies, event] }),
                  { type: 'announceSignals', params: ({ event }) => ({ signals: event.signals }) },
                ],
              },
              {
                actions: [
                  assign({ replies: ({ context, event }) => [...context.replies, event] }),
                  { type: 'announceSignals', params: ({ event }) => ({ signals: event.signals }) },
                ],
              },
            ],
          },
        },
        arbitrating: {
          entry: sendTo(
            ({ system }) => system.get('arbiter'),
            ({ context, self }): SelectRequest => ({
              type: 'arbiter.select',
              cycle: context.cycle,
              signals: context.replies.flatMap((r) => r.signals),
              replyTo: self,
            }),
          ),
          on: {
            'arbiter.selected': [
              {
                guard: ({ event }) => event.result.selected.length === 0,
                target: '#cycle.recording',
                actions: assign({ arbitration: ({ event }) => event.result }),
              },
              { target: 'sizing', actions: assign({ arbitration: ({ event }) => event.result }) },
            ],
          },
        },
        sizing: {
          entry: sendTo(
            ({ system }) => system.get('allocator'),
            ({ context, self }): SizeRequest => ({
              type: 'allocator.size',
              cycle: context.cycle,
              selected: context.arbitration!.selected,
              account: context.account!,
              market: context.market!,
              replyTo: self,
            }),
          ),
          on: {
            'allocator.sized': [
              {
                guard: ({ event }) => event.proposals.every((p) => p.order === null),
                target: '#cycle.recording',
                actions: assign({ proposals: ({ event }) => event.proposals }),
              },
              { target: 'checking', actions: assign({ proposals: ({ event }) => event.proposals }) },
            ],
          },
        },
        checking: {
          entry: sendTo(
            ({ system }) => system.get('risk'),
            ({ context, self }): EvaluateRequest => ({
              type: 'risk.evaluate',
              cycle: context.cycle,
              orders: context.proposals.flatMap((p) => (p.order ? [p.order] : [])),
              account: context.account!,
              market: context.market!,
              epoch: context.epoch,
              now: context.now!,
              replyTo: self,
            }),
          ),
          on: {
            'risk.evaluated': [
              {
                guard: ({ event }) => event.verdicts.every((v) => v.approval === null),
                target: '#cycle.recording',
                actions: [
                  assign({ verdicts: ({ event }) => event.verdicts }),
                  { type: 'announceVerdicts', params: ({ event }) => ({ verdicts: event.verdicts }) },
                ],
              },
              {
                target: 'submitting',
                actions: [
                  assign({ verdicts: ({ event }) => event.verdicts }),
                  { type: 'announceVerdicts', params: ({ event }) => ({ verdicts: event.verdicts }) },
                ],
              },
            ],
          },
        },
        submitting: {
          entry: sendTo(
            ({ system }) => system.get('oms'),
            ({ context, self }): SubmitRequest => ({
              type: 'oms.submit',
              cycle: context.cycle,
              approvals: context.verdicts.flatMap((v) => (v.approval ? [v.approval] : [])),
              replyTo: self,
            }),
          ),
          on: {
            'oms.submitted': {
              target: '#cycle.recording',
              actions: assign({ outcomes: ({ event }) => event.outcomes }),
            },
          },
        },
      },
    },
    recording: {
      invoke: {
        src: 'recordDecision',
        input: ({ context }) => toRecord(context),
        onDone: 'done',
        onError: {
          target: 'unrecorded',
          actions: assign({
            outcome: 'failed' as const,
            error: ({ event }) => `recording failed: ${String((event.error as Error)?.message ?? event.error)}`,
          }),
        },
      },
    },
    done: { type: 'final' },
    /** The decision could not be written; the cycle's output still carries everything. */
    unrecorded: { type: 'final' },
  },
  output: ({ context }) => toRecord(context),
});

function toRecord(context: CycleContext): CycleRecord {
  const { agentIds: _agentIds, market: _market, ...record } = context;
  return record;
}

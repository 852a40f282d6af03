/**
 * The deciding part of one cycle, on a market that is already loaded: every strategy agent analyses
 * it → the arbiter selects → the allocator sizes → the risk engine checks and signs → the order
 * manager verifies and submits. Each step is a message to a child of the root found by systemId;
 * every reply names this actor as `replyTo`. The loaded market, account and clock reading are this
 * machine's input, so every step that needs them has them. A step that does not answer within
 * `cycleDeadline` ends the decision as `failed`, with everything gathered so far.
 */
import { assign, enqueueActions, sendTo, setup } from 'xstate';
import type { ArbitrationResult } from '../src/domain/arbitration.js';
import type { Proposal } from '../src/domain/allocation.js';
import type { MarketView } from '../src/domain/market.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';
import type { Signal } from '../src/domain/signal.js';
import type {
  EvaluatedReply,
  SelectedReply,
  SignalsReply,
  SizedReply,
  SubmissionOutcome,
  SubmittedReply,
  Verdict,
} from './messages.js';
import { agentOf, allocatorOf, arbiterOf, omsOf, riskOf } from './system.js';

export interface DecisionInput {
  cycle: number;
  /** The control epoch the cycle runs in; approvals are signed for it. */
  epoch: number;
  /** systemIds of the strategy agent actors. */
  agentIds: string[];
  /** Epoch ms from the process clock when the market was read. */
  now: number;
  market: MarketView;
  account: AccountSnapshot;
}

/** What the decision learned, for the cycle's record. */
export interface DecisionOutput {
  replies: SignalsReply[];
  arbitration: ArbitrationResult | null;
  proposals: Proposal[];
  verdicts: Verdict[];
  outcomes: SubmissionOutcome[];
  outcome: 'completed' | 'failed';
  error: string | null;
}

interface DecisionContext extends DecisionInput, DecisionOutput {
  /** The arbiter's selection, kept apart from `arbitration` so sizing needs no null check. */
  selected: Signal[];
}

type DecisionEvent = SignalsReply | SelectedReply | SizedReply | EvaluatedReply | SubmittedReply;

export const decisionMachine = setup({
  types: {} as { context: DecisionContext; input: DecisionInput; events: DecisionEvent; output: DecisionOutput },
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
    lastAgentReply: ({ context }) => context.replies.length + 1 >= context.agentIds.length,
    noAgents: ({ context }) => context.agentIds.length === 0,
  },
}).createMachine({
  id: 'decision',
  context: ({ input }) => ({
    ...input,
    replies: [],
    arbitration: null,
    selected: [],
    proposals: [],
    verdicts: [],
    outcomes: [],
    outcome: 'completed',
    error: null,
  }),
  initial: 'working',
  states: {
    working: {
      initial: 'analysing',
      after: {
        cycleDeadline: {
          target: 'done',
          actions: assign({
            outcome: 'failed' as const,
            error: 'cycle deadline exceeded: a step did not answer in time',
          }),
        },
      },
      states: {
        analysing: {
          always: { guard: 'noAgents', target: 'arbitrating' },
          entry: enqueueActions(({ context, system, self, enqueue }) => {
            for (const id of context.agentIds) {
              enqueue.sendTo(agentOf(system, id), {
                type: 'agent.analyse',
                cycle: context.cycle,
                market: context.market,
                replyTo: self,
              });
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
            ({ system }) => arbiterOf(system),
            ({ context, self }) => ({
              type: 'arbiter.select' as const,
              cycle: context.cycle,
              signals: context.replies.flatMap((r) => r.signals),
              replyTo: self,
            }),
          ),
          on: {
            'arbiter.selected': [
              {
                guard: ({ event }) => event.result.selected.length === 0,
                target: '#decision.done',
                actions: assign({ arbitration: ({ event }) => event.result }),
              },
              {
                target: 'sizing',
                actions: assign({
                  arbitration: ({ event }) => event.result,
                  selected: ({ event }) => event.result.selected,
                }),
              },
            ],
          },
        },
        sizing: {
          entry: sendTo(
            ({ system }) => allocatorOf(system),
            ({ context, self }) => ({
              type: 'allocator.size' as const,
              cycle: context.cycle,
              selected: context.selected,
              account: context.account,
              market: context.market,
              replyTo: self,
            }),
          ),
          on: {
            'allocator.sized': [
              {
                guard: ({ event }) => event.proposals.every((p) => p.order === null),
                target: '#decision.done',
                actions: assign({ proposals: ({ event }) => event.proposals }),
              },
              { target: 'checking', actions: assign({ proposals: ({ event }) => event.proposals }) },
            ],
          },
        },
        checking: {
          entry: sendTo(
            ({ system }) => riskOf(system),
            ({ context, self }) => ({
              type: 'risk.evaluate' as const,
              cycle: context.cycle,
              orders: context.proposals.flatMap((p) => (p.order ? [p.order] : [])),
              account: context.account,
              market: context.market,
              epoch: context.epoch,
              now: context.now,
              replyTo: self,
            }),
          ),
          on: {
            'risk.evaluated': [
              {
                guard: ({ event }) => event.verdicts.every((v) => v.approval === null),
                target: '#decision.done',
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
            ({ system }) => omsOf(system),
            ({ context, self }) => ({
              type: 'oms.submit' as const,
              purpose: 'cycle' as const,
              cycle: context.cycle,
              approvals: context.verdicts.flatMap((v) => (v.approval ? [v.approval] : [])),
              replyTo: self,
            }),
          ),
          on: {
            'oms.submitted': {
              target: '#decision.done',
              actions: assign({ outcomes: ({ event }) => event.outcomes }),
            },
          },
        },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({
    replies: context.replies,
    arbitration: context.arbitration,
    proposals: context.proposals,
    verdicts: context.verdicts,
    outcomes: context.outcomes,
    outcome: context.outcome,
    error: context.error,
  }),
});

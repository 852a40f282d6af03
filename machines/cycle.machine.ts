/**
 * One trading cycle as a statechart (DESIGN.md §2): load the market → decide (the `decision` child:
 * agents → arbiter → allocator → risk → order manager) → record the decision. I/O (market, store)
 * happens only in the `loadMarket` and `recordDecision` actors that the composition root supplies.
 * If the stored control state moved since the cycle began, it stops at once (`superseded`) and
 * submits nothing. Every cycle that gets as far as a result — completed, superseded, failed, or over
 * a `cycleDeadline` — is recorded, so the DecisionLog has an entry per cycle; only a cycle stopped
 * from outside (pause, kill) has none.
 */
import { assertEvent, assign, setup } from 'xstate';
import type { DoneActorEvent, EventObject } from 'xstate';
import type { ArbitrationResult } from '../src/domain/arbitration.js';
import type { Proposal } from '../src/domain/allocation.js';
import type { ControlRecord } from '../src/domain/control.js';
import type { MarketView } from '../src/domain/market.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';
import { fromPromise } from 'xstate';
import { decisionMachine } from './decision.machine.js';
import type { DecisionOutput } from './decision.machine.js';
import type { SignalsReply, SubmissionOutcome, Verdict } from './messages.js';

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
  /** When the market was read; null when loading failed. */
  now: number | null;
  /** The account the decision was made on; null when loading failed. */
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
}

const errorText = (error: unknown) => String((error as Error)?.message ?? error);

export const cycleMachine = setup({
  types: {} as { context: CycleContext; input: CycleInput; output: CycleRecord },
  actors: {
    loadMarket: fromPromise<LoadedMarket, { cycle: number; epoch: number }>(async () => {
      throw new Error('loadMarket was not provided');
    }),
    decide: decisionMachine,
    recordDecision: fromPromise<void, CycleRecord>(async () => {
      throw new Error('recordDecision was not provided');
    }),
  },
  delays: {
    // A store or feed that never answers must not stall trading silently.
    cycleDeadline: 30_000,
  },
  guards: {
    controlMoved: ({ context }, params: { control: ControlRecord }) =>
      params.control.state !== 'running' || params.control.epoch !== context.epoch,
  },
}).createMachine({
  id: 'cycle',
  context: ({ input }) => ({
    cycle: input.cycle,
    epoch: input.epoch,
    agentIds: input.agentIds,
    now: null,
    account: null,
    replies: [],
    arbitration: null,
    proposals: [],
    verdicts: [],
    outcomes: [],
    outcome: 'completed',
    error: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      after: {
        cycleDeadline: {
          target: 'recording',
          actions: assign({ outcome: 'failed' as const, error: 'cycle deadline exceeded: the market did not load' }),
        },
      },
      invoke: {
        id: 'load',
        src: 'loadMarket',
        input: ({ context }) => ({ cycle: context.cycle, epoch: context.epoch }),
        onDone: [
          {
            guard: { type: 'controlMoved', params: ({ event }) => ({ control: event.output.control }) },
            target: 'recording',
            actions: assign({ outcome: 'superseded' as const }),
          },
          {
            target: 'deciding',
            actions: assign(({ event }) => ({ now: event.output.now, account: event.output.account })),
          },
        ],
        onError: {
          target: 'recording',
          actions: assign({ outcome: 'failed' as const, error: ({ event }) => errorText(event.error) }),
        },
      },
    },
    deciding: {
      invoke: {
        id: 'decision',
        src: 'decide',
        // The market is handed over on the transition that loaded it, so the decision has it from
        // its first state on; the cycle keeps only what its record needs.
        input: ({ context, event }) => decisionInput(context, event),
        onDone: {
          target: 'recording',
          actions: assign(({ event }) => recordedDecision(event.output)),
        },
        onError: {
          target: 'recording',
          actions: assign({ outcome: 'failed' as const, error: ({ event }) => errorText(event.error) }),
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
            error: ({ event }) => `recording failed: ${errorText(event.error)}`,
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

/** The decision's input from the loadMarket result that led into `deciding`. */
function decisionInput(context: CycleContext, event: EventObject) {
  // The only way into `deciding` is the load's done event; assert it, then read its typed output.
  assertEvent(event, 'xstate.done.actor.load');
  const loaded = (event as DoneActorEvent<LoadedMarket>).output;
  return {
    cycle: context.cycle,
    epoch: context.epoch,
    agentIds: context.agentIds,
    now: loaded.now,
    market: loaded.market,
    account: loaded.account,
  };
}

function recordedDecision(output: DecisionOutput): Partial<CycleContext> {
  return { ...output };
}

function toRecord(context: CycleContext): CycleRecord {
  const { agentIds: _agentIds, ...record } = context;
  return record;
}

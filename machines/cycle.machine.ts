/**
 * One trading cycle as a statechart (DESIGN.md §2): load the market → decide (the risk engine sees
 * the account first and may enter `reducing`, then agents → arbiter → allocator → risk → order
 * manager, each step a message to a child of the root found by systemId, every reply naming this
 * actor as `replyTo`) → record the decision. Resting orders that could open exposure are cancelled
 * (ahead of any submission) when the engine is reducing, and in a symbol a protective exit closes. I/O (market, store) happens only
 * in the `loadMarket` and `recordDecision` actions that the composition root supplies: each starts
 * its work and answers this actor with an event (CycleIoReply) when it ends. Actions, not promise
 * actors: two actors fewer created, started and stopped every cycle (issue 22's profile).
 * If the stored control state moved since the cycle began, it stops at once (`superseded`) and
 * submits nothing. Every cycle that gets as far as a result — completed, superseded, failed, or over
 * a `cycleDeadline` — is recorded, so the DecisionLog has an entry per cycle; only a cycle stopped
 * from outside (pause, kill) has none.
 *
 * The deciding steps are states of this machine rather than a child machine of their own: a child
 * would be one more actor created, started, snapshotted and stopped every cycle, which a simulation
 * run pays a hundred thousand times (issue 9's profile) for no difference in behaviour.
 *
 * For the same reason the cycle actor itself is long-lived (issue 34, item 8): the root makes one per
 * running period and tells it `cycle.begin` (cycle N at epoch E) each cycle; it waits in `idle`
 * between cycles and tells the root `cycle.finished` when a cycle ends. A pause, kill or safety halt
 * stops it (the root makes a fresh one), so a stopped cycle still submits nothing. A reply can outlive
 * its cycle (one over the deadline): every reply names its cycle, and only the current one's is taken.
 */
import { assign, enqueueActions, sendParent, sendTo, setup } from 'xstate';
import type { ArbitrationResult } from '../src/domain/arbitration.js';
import type { Proposal } from '../src/domain/allocation.js';
import type { ControlRecord } from '../src/domain/control.js';
import type { MarketView } from '../src/domain/market.js';
import { cycleCandles } from '../src/domain/cycle-candles.js';
import type { CycleCandle } from '../src/domain/cycle-candles.js';
import type { AccountSnapshot } from '../src/domain/portfolio.js';
import type { Signal } from '../src/domain/signal.js';
import type { ProtectionState } from '../src/domain/protection.js';
import type { RiskTradingState } from '../src/domain/risk/trading-state.js';
import type {
  CycleBegin,
  EvaluatedReply,
  ObservedReply,
  SelectedReply,
  SignalsReply,
  SizedReply,
  SubmissionOutcome,
  SubmittedReply,
  Verdict,
} from './messages.js';
import { agentOf, allocatorOf, arbiterOf, omsOf, ownersOf, riskOf } from './system.js';
import { ResampleCache } from '../src/domain/strategy-input.js';

/** symbol → the agent whose signal set the position the account holds there (symbols held only). */
function holdings(account: AccountSnapshot, owners: ReadonlyMap<string, string>): Map<string, string | null> {
  const held = new Map<string, string | null>();
  for (const p of account.positions) if (p.qty !== 0) held.set(p.symbol, owners.get(p.symbol) ?? null);
  for (const o of account.openOrders)
    if (o.status === 'open' && !held.has(o.symbol)) held.set(o.symbol, owners.get(o.symbol) ?? null);
  return held;
}

/** What the long-lived cycle actor is made with (the root's running period); each cycle's number and epoch come with `cycle.begin`. */
export interface CycleInput {
  /** systemIds of the strategy agent actors. */
  agentIds: string[];
  /** The feed's bar length (for the higher-timeframe candles agents declared); default one minute. */
  baseBarMs?: number;
  /**
   * Protective exits are configured: the allocator is asked every cycle the account holds a
   * position, also when no signal was selected, so its stops are judged on every market update.
   */
  protect?: boolean;
}

export interface LoadedMarket {
  /** Epoch ms from the process clock when the market was read. */
  now: number;
  /** The same instant on the clock the drawdown window is judged on (a wall-clock step cannot move it). */
  steady?: number;
  market: MarketView;
  account: AccountSnapshot;
  /** Symbols whose exchange-side stop triggered since the last cycle (its fills came in this load). */
  stopped?: string[];
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
  /** The protective exits' state when the allocator changed it this cycle (the recorder stores it). */
  protection?: ProtectionState;
  /** symbol → owning agent when the allocator changed it this cycle (the recorder stores it). */
  owners?: Readonly<Record<string, string>>;
  /** The risk engine's state the cycle decided in (after it saw the cycle's account); absent before that. */
  riskState?: RiskTradingState;
  /** The bar each symbol's feed just closed (the console's candle chart); absent when the market did not load. */
  candles?: Record<string, CycleCandle>;
}

interface CycleContext extends CycleRecord {
  agentIds: string[];
  baseBarMs: number;
  protect: boolean;
  /** The loaded market the steps decide on; null until it is loaded. Not part of the record. */
  market: MarketView | null;
  /** LoadedMarket.steady: what the risk engine times its drawdown window on. Not part of the record. */
  steady: number | null;
  /** LoadedMarket.stopped: the allocator starts their cooldowns. Not part of the record. */
  stopped: string[];
  /** The arbiter's selection, kept apart from `arbitration` so sizing needs no null check. */
  selected: Signal[];
}

/** What the cycle actor tells the root (its parent) when a cycle ends; recorded: false when recording failed. */
export interface CycleFinished {
  type: 'cycle.finished';
  cycle: number;
  record: CycleRecord;
  recorded: boolean;
}

/**
 * What the composition root's I/O actions answer (see `loadMarket` / `recordDecision`), naming the
 * cycle that asked. An answer that arrives after its state was left (the market over the cycle
 * deadline) finds no transition, nor one in a later cycle (its number is not the current one).
 */
export type CycleIoReply =
  | { type: 'cycle.market.loaded'; cycle: number; output: LoadedMarket }
  | { type: 'cycle.market.failed'; cycle: number; error: unknown }
  | { type: 'cycle.recorded'; cycle: number }
  | { type: 'cycle.record.failed'; cycle: number; error: unknown };

type CycleEvent =
  | CycleBegin
  | ObservedReply
  | SignalsReply
  | SelectedReply
  | SizedReply
  | EvaluatedReply
  | SubmittedReply
  | CycleIoReply;

/** The per-cycle part of the context, fresh at every `cycle.begin`. */
function freshCycle(cycle: number, epoch: number) {
  return {
    cycle,
    epoch,
    now: null,
    account: null,
    market: null,
    steady: null,
    stopped: [],
    replies: [],
    arbitration: null,
    selected: [],
    proposals: [],
    verdicts: [],
    outcomes: [],
    outcome: 'completed' as const,
    error: null,
    protection: undefined,
    owners: undefined,
    riskState: undefined,
    candles: undefined,
  } satisfies Omit<CycleContext, 'agentIds' | 'baseBarMs' | 'protect'>;
}

/** Put first in a reply's transitions: a reply from an earlier cycle is taken and does nothing. */
const IGNORE_STALE = { guard: 'staleReply' } as const;

const errorText = (error: unknown) => String((error as Error)?.message ?? error);
const reducing = (context: CycleContext) => context.riskState === 'reducing';
const holdsPosition = (context: CycleContext) => context.account!.positions.some((p) => p.qty !== 0);

/** Symbols with a resting order that could open exposure (not reduce-only). */
function restingOpens(account: AccountSnapshot): string[] {
  return [...new Set(account.openOrders.filter((o) => o.status === 'open' && !o.reduceOnly).map((o) => o.symbol))];
}

/** Symbols whose approved protective exit leaves a resting order behind that could reopen the position. */
function exitsWithRestingOpens(context: CycleContext): string[] {
  const approved = new Set(context.verdicts.flatMap((v) => (v.approval ? [v.order.clientOrderId] : [])));
  const exiting = new Set(
    context.proposals.flatMap((p) =>
      p.exit && p.order && approved.has(p.order.clientOrderId) ? [p.order.symbol] : [],
    ),
  );
  return restingOpens(context.account!).filter((symbol) => exiting.has(symbol));
}

export const cycleMachine = setup({
  types: {} as { context: CycleContext; input: CycleInput; events: CycleEvent },
  actions: {
    // The cycle's I/O, supplied by the composition root: start the work, answer with a CycleIoReply.
    loadMarket: (_, _params: { cycle: number; epoch: number }) => {},
    recordDecision: (_, _params: CycleRecord) => {},
    // Event lines; the composition root provides the writers.
    announceSignals: (_, _params: Pick<SignalsReply, 'agent' | 'signals' | 'errors' | 'invalid'>) => {},
    announceVerdicts: (_, _params: { verdicts: Verdict[] }) => {},
    // The fills of protective exits, with their reason (the position_exit line).
    announceExits: (_, _params: { proposals: Proposal[]; outcomes: SubmissionOutcome[] }) => {},
    // The root learns the cycle ended, with what it learned (recorded: false when recording failed).
    finish: sendParent(({ context }, params: { recorded: boolean }): CycleFinished => ({
      type: 'cycle.finished',
      cycle: context.cycle,
      record: toRecord(context),
      recorded: params.recorded,
    })),
    rememberSized: assign(({ event }) => {
      const sized = event as SizedReply;
      return {
        proposals: sized.proposals,
        ...(sized.protection ? { protection: sized.protection } : {}),
        ...(sized.owners ? { owners: sized.owners } : {}),
      };
    }),
  },
  delays: {
    // A store, a feed or a child that never answers must not stall trading silently.
    cycleDeadline: 30_000,
  },
  guards: {
    // A reply that outlived its cycle (an answer over the deadline) is not this cycle's: it is dropped.
    staleReply: ({ context, event }) => (event as { cycle: number }).cycle !== context.cycle,
    controlMoved: ({ context }, params: { control: ControlRecord }) =>
      params.control.state !== 'running' || params.control.epoch !== context.epoch,
    lastAgentReply: ({ context }) => context.replies.length + 1 >= context.agentIds.length,
    noAgents: ({ context }) => context.agentIds.length === 0,
    // Nothing selected and no position for a protective exit to judge or the engine to reduce.
    nothingToSize: ({ context }, params: { selected: readonly Signal[] }) =>
      params.selected.length === 0 &&
      !((context.protect || reducing(context)) && holdsPosition(context)) &&
      // A stop the exchange triggered leaves nothing held, but its cooldown starts in the allocator.
      context.stopped.length === 0,
    // Reducing with positions open: the risk engine closes them itself, so it is asked with no orders too.
    engineCloses: ({ context }) => reducing(context) && holdsPosition(context),
  },
}).createMachine({
  id: 'cycle',
  context: ({ input }) => ({
    ...freshCycle(0, 0),
    agentIds: input.agentIds,
    baseBarMs: input.baseBarMs ?? 60_000,
    protect: input.protect ?? false,
  }),
  initial: 'idle',
  states: {
    /** Between cycles: the next begins with what the root tells it (its number and epoch). */
    idle: {
      on: {
        'cycle.begin': {
          target: 'loading',
          actions: assign(({ event }) => freshCycle(event.cycle, event.epoch)),
        },
      },
    },
    loading: {
      after: {
        cycleDeadline: {
          target: 'recording',
          actions: assign({ outcome: 'failed' as const, error: 'cycle deadline exceeded: the market did not load' }),
        },
      },
      entry: { type: 'loadMarket', params: ({ context }) => ({ cycle: context.cycle, epoch: context.epoch }) },
      on: {
        'cycle.market.loaded': [
          IGNORE_STALE,
          {
            guard: { type: 'controlMoved', params: ({ event }) => ({ control: event.output.control }) },
            target: 'recording',
            actions: assign({ outcome: 'superseded' as const }),
          },
          {
            target: 'deciding',
            actions: assign(({ event }) => ({
              now: event.output.now,
              steady: event.output.steady ?? event.output.now,
              account: event.output.account,
              market: event.output.market,
              candles: cycleCandles(event.output.market),
              stopped: event.output.stopped ?? [],
            })),
          },
        ],
        'cycle.market.failed': [
          IGNORE_STALE,
          {
            target: 'recording',
            actions: assign({ outcome: 'failed' as const, error: ({ event }) => errorText(event.error) }),
          },
        ],
      },
    },
    deciding: {
      initial: 'assessing',
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
        // The risk engine sees the account first: a drawdown beyond its limit moves it to `reducing`
        // before anything is decided, so this cycle's orders are already judged in that state.
        assessing: {
          entry: sendTo(
            ({ system }) => riskOf(system),
            ({ context, self }) => ({
              type: 'risk.observe' as const,
              cycle: context.cycle,
              account: context.account!,
              now: context.now!,
              steady: context.steady ?? context.now!,
              replyTo: self,
            }),
          ),
          on: {
            'risk.observed': [
              IGNORE_STALE,
              {
                target: 'analysing',
                actions: [
                  assign({ riskState: ({ event }) => event.state }),
                  // Entered reducing in this cycle with opening orders still resting (the load cancels
                  // them only from the next cycle on): they are cancelled now, before anything is sent.
                  enqueueActions(({ context, event, system, enqueue }) => {
                    if (event.state !== 'reducing') return;
                    const opening = restingOpens(context.account!);
                    if (opening.length > 0)
                      enqueue.sendTo(omsOf(system), {
                        type: 'oms.cancel',
                        reason: 'risk_reducing',
                        symbols: opening,
                        receipt: null,
                      });
                  }),
                ],
              },
            ],
          },
        },
        analysing: {
          always: { guard: 'noAgents', target: 'arbitrating' },
          entry: enqueueActions(({ context, system, self, enqueue }) => {
            // Each agent is told its own position: which agent set a symbol's position is the
            // allocator's memory, read (not changed) from its snapshot.
            const owners = ownersOf(system);
            const resampled = new ResampleCache(context.baseBarMs);
            for (const id of context.agentIds) {
              enqueue.sendTo(agentOf(system, id), {
                type: 'agent.analyse',
                cycle: context.cycle,
                market: context.market!,
                account: context.account!,
                owners,
                resampled,
                replyTo: self,
              });
            }
          }),
          on: {
            'agent.signals': [
              IGNORE_STALE,
              {
                guard: 'lastAgentReply',
                target: 'arbitrating',
                actions: [
                  assign({ replies: ({ context, event }) => [...context.replies, event] }),
                  { type: 'announceSignals', params: ({ event }) => event },
                ],
              },
              {
                actions: [
                  assign({ replies: ({ context, event }) => [...context.replies, event] }),
                  { type: 'announceSignals', params: ({ event }) => event },
                ],
              },
            ],
          },
        },
        arbitrating: {
          entry: sendTo(
            ({ system }) => arbiterOf(system),
            ({ context, system, self }) => ({
              type: 'arbiter.select' as const,
              cycle: context.cycle,
              signals: context.replies.flatMap((r) => r.signals),
              holdings: holdings(context.account!, ownersOf(system)),
              replyTo: self,
            }),
          ),
          on: {
            'arbiter.selected': [
              IGNORE_STALE,
              {
                guard: { type: 'nothingToSize', params: ({ event }) => ({ selected: event.result.selected }) },
                target: '#cycle.recording',
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
              maxOrders: context.arbitration?.maxOrders ?? 1,
              account: context.account!,
              market: context.market!,
              ...(context.steady !== null ? { steady: context.steady } : {}),
              ...(context.stopped.length > 0 ? { stopped: context.stopped } : {}),
              replyTo: self,
            }),
          ),
          on: {
            'allocator.sized': [
              IGNORE_STALE,
              { guard: 'engineCloses', target: 'checking', actions: 'rememberSized' },
              {
                guard: ({ event }) => event.proposals.every((p) => p.order === null),
                target: '#cycle.recording',
                actions: 'rememberSized',
              },
              { target: 'checking', actions: 'rememberSized' },
            ],
          },
        },
        checking: {
          entry: sendTo(
            ({ system }) => riskOf(system),
            ({ context, self }) => ({
              type: 'risk.evaluate' as const,
              purpose: 'cycle' as const,
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
              IGNORE_STALE,
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
          entry: enqueueActions(({ context, system, self, enqueue }) => {
            // A protective exit closes the position, but a resting order that opens it could fill
            // later and reopen it: those symbols' resting orders are cancelled first (first in line).
            const reopening = exitsWithRestingOpens(context);
            if (reopening.length > 0)
              enqueue.sendTo(omsOf(system), {
                type: 'oms.cancel',
                reason: 'protective_exit',
                symbols: reopening,
                receipt: null,
              });
            enqueue.sendTo(omsOf(system), {
              type: 'oms.submit',
              purpose: 'cycle',
              cycle: context.cycle,
              approvals: context.verdicts.flatMap((v) => (v.approval ? [v.approval] : [])),
              replyTo: self,
            });
          }),
          on: {
            'oms.submitted': [
              IGNORE_STALE,
              {
                target: '#cycle.recording',
                actions: [
                  assign({ outcomes: ({ event }) => event.outcomes }),
                  {
                    type: 'announceExits',
                    params: ({ context, event }) => ({ proposals: context.proposals, outcomes: event.outcomes }),
                  },
                ],
              },
            ],
          },
        },
      },
    },
    recording: {
      entry: { type: 'recordDecision', params: ({ context }) => toRecord(context) },
      on: {
        'cycle.recorded': [IGNORE_STALE, { target: 'idle', actions: { type: 'finish', params: { recorded: true } } }],
        'cycle.record.failed': [
          IGNORE_STALE,
          {
            // The decision could not be written; what the root is told still carries everything.
            target: 'idle',
            actions: [
              assign({
                outcome: 'failed' as const,
                error: ({ event }) => `recording failed: ${errorText(event.error)}`,
              }),
              { type: 'finish', params: { recorded: false } },
            ],
          },
        ],
      },
    },
  },
});

/**
 * The record of the cycle: built field by field (not by dropping the context's own fields), in the
 * order the record always had, the optional fields only when the cycle set them (a long-lived actor's
 * context holds them as undefined between cycles).
 */
function toRecord(context: CycleContext): CycleRecord {
  const record: CycleRecord = {
    cycle: context.cycle,
    epoch: context.epoch,
    now: context.now,
    account: context.account,
    replies: context.replies,
    arbitration: context.arbitration,
    proposals: context.proposals,
    verdicts: context.verdicts,
    outcomes: context.outcomes,
    outcome: context.outcome,
    error: context.error,
  };
  if (context.candles !== undefined) record.candles = context.candles;
  if (context.riskState !== undefined) record.riskState = context.riskState;
  if (context.protection !== undefined) record.protection = context.protection;
  if (context.owners !== undefined) record.owners = context.owners;
  return record;
}

/**
 * The root statechart of the trading process. Its `control` region is the one control definition
 * (machines/control.machine.ts: running ⇄ paused → killed), extended with what each state does here:
 *  - running: a cycle at once, then one every `cycleInterval` after the previous ends;
 *  - paused: no cycle runs; the order manager halts (open orders stay);
 *  - killed: final for the control region; the cycle in flight is stopped, the order manager stops
 *    and cancels every open order. The root itself stays alive so cancels and risk-reducing
 *    commands still run; only `session.stop` (process shutdown) ends it.
 * Queued commands arrive as `command.received` in every state: cancels go to the order manager, and
 * each deleverage (flatten) gets a `deleverage` (`flatten`) actor that takes it through risk and the
 * order manager; an operator's drawdown reset (`risk_reset`) gets a `riskReset` actor (the venue
 * resets the peak NAV).
 * At entry the root spawns its children with systemIds: one actor per strategy agent
 * (`agent:<name>`), `arbiter`, `allocator`, `risk` and `oms`. `starting` jumps straight to the state
 * the store holds, so no cycle can start before the process knows it is paused or killed.
 * The safety halt lives here too, and only here (the heartbeat, the order manager's mode and the
 * audit trail derive from it). The safety monitor only reports what it observes (SafetyEvent): a fault
 * halts — orthogonal to the control state: in any state it cancels every open order, and while
 * running it holds the root in `running.halted` (no cycle, the order manager halted); the checks
 * passing again start the halt's recovery (`recoverHalt`: cancel once more, record the halt in the
 * audit trail), and only its success ends the halt.
 */
import { assign, enqueueActions, fromPromise, sendTo, setup, spawnChild, stopChild } from 'xstate';
import type { ErrorActorEvent } from 'xstate';
import type { ArbitrationOptions } from '../src/domain/arbitration.js';
import type { ControlRecord, SystemState } from '../src/domain/control.js';
import type { HaltReason } from '../src/domain/halt-reasons.js';
import type { Instrument } from '../src/domain/market.js';
import type { CancelCommandRecord, RiskResetRecord } from '../src/domain/commands.js';
import type { StrategyAgent } from '../src/domain/strategy-agent.js';
import type { HistoryPlan } from '../src/domain/strategy-input.js';
import { haltOn } from '../src/domain/halts.js';
import type { SafetyFault, SafetyHalt } from '../src/domain/halts.js';
import { agentMachine } from './agent.machine.js';
import { allocatorMachine } from './allocator.machine.js';
import type { AllocatorInput } from './allocator.machine.js';
import { arbiterMachine } from './arbiter.machine.js';
import { controlStates } from './control.machine.js';
import { cycleMachine } from './cycle.machine.js';
import { NO_PROTECTION, protectionEnabled } from '../src/domain/protection.js';
import type { CycleFinished, CycleInput, CycleRecord } from './cycle.machine.js';
import { deleverageMachine } from './deleverage.machine.js';
import { flattenMachine } from './flatten.machine.js';
import type { CommandReceived } from './messages.js';
import { orderManagerMachine } from './order-manager.machine.js';
import { riskMachine } from './risk.machine.js';
import type { RiskInput } from './risk.machine.js';
import { agentSystemId, omsOf, riskOf } from './system.js';

export interface TradingInput {
  /** The control record read from the store before start. */
  control: ControlRecord;
  cycleMs: number;
  strategies: readonly StrategyAgent[];
  instruments: readonly Instrument[];
  arbitration: ArbitrationOptions;
  allocation: Omit<AllocatorInput, 'instruments'>;
  risk: RiskInput;
  /** A safety halt already in force at start (see SafetyEvent); none by default. */
  halt?: SafetyHalt | null;
  /** The first cycle's number: after a restart, one past the last recorded cycle; 1 by default. */
  firstCycle?: number;
  /**
   * The feed's bar length and what each strategy (same order) declared of it (historyPlan, checked
   * at start). Absent: one-minute bars, no declarations.
   */
  history?: { baseBarMs: number; plans: readonly HistoryPlan[] };
}

/**
 * Control events as the root receives them: the API's events plus the epoch the store assigned and,
 * from a stored record, when it changed (epoch ms).
 */
export type RootControlEvent =
  | { type: 'control.pause'; reason: string; epoch: number; at?: number }
  | { type: 'control.resume'; reason: string; epoch: number; at?: number }
  | { type: 'control.kill'; reason: string; epoch: number; at?: number };

/**
 * What the safety monitor observed, at `at` (epoch ms): a fault (the trading process lost its store,
 * found it emptied, replaced or rolled back, its writes refused, its lease unsure, or lost sight of the
 * control plane), or every check passing. Observations repeat every tick; the root decides: a fault
 * with a new reason halts (nothing new is opened: no cycle runs, the order manager refuses
 * submissions, every open order is cancelled); the checks passing while halted start the recovery.
 */
export type SafetyEvent =
  { type: 'safety.halt'; reason: HaltReason; message: string; at: number } | { type: 'safety.clear'; at: number };

/** The halt recovery's end (a spawned `recoverHalt` actor, id HALT_RECOVERY). */
type RecoveryEvent =
  | { type: 'xstate.done.actor.halt-recovery'; output: SafetyHalt }
  | { type: 'xstate.error.actor.halt-recovery'; error: unknown };

/** What the long-lived cycle actor (id CYCLE_ACTOR) tells the root: a cycle ended, or the actor failed. */
type CycleActorEvent = CycleFinished | ErrorActorEvent<unknown, 'xstate.error.actor.cycle'>;

export type TradingEvent =
  RootControlEvent | CommandReceived | SafetyEvent | RecoveryEvent | CycleActorEvent | { type: 'session.stop' };

/** The id of the root's cycle actor (one per running period). */
const CYCLE_ACTOR = 'cycle';

/** What the cycle actor is made with: the same for every cycle of the running period. */
function cycleInput({ context }: { context: TradingContext }): CycleInput {
  return {
    agentIds: context.agentIds,
    baseBarMs: context.children.history?.baseBarMs ?? 60_000,
    // Only when configured: a cycle without protective exits is asked exactly as before.
    ...(protectionEnabled(context.children.allocation.protection ?? NO_PROTECTION) ? { protect: true } : {}),
  };
}

/** What the halt recovery is given: the halt that is ending and when the checks passed. */
export interface HaltRecoveryInput {
  halt: SafetyHalt;
  until: number;
}

interface TradingContext {
  /** The highest control epoch the root has been sent. */
  epoch: number;
  /** The control state last entered; kept after `session.stop`, when the control region is gone. */
  state: SystemState;
  boot: SystemState;
  cycle: number;
  cycleMs: number;
  agentIds: string[];
  lastCycle: CycleRecord | null;
  /** The safety halt in force, null when there is none (see SafetyEvent). */
  halt: SafetyHalt | null;
  /** True while a `recoverHalt` actor is ending the halt. */
  recovering: boolean;
  /**
   * The first fault with the halt's own reason observed while its recovery ran: the recovery then
   * does not end the halt (the fault is back), it only closes the period it recorded.
   */
  faultDuringRecovery: (SafetyFault & { at: number }) | null;
  children: Omit<TradingInput, 'control' | 'cycleMs' | 'firstCycle'>;
}

/** The recovery that ended recorded the halt that is still in force (the same one, not a newer). */
function recordedCurrent(context: TradingContext, event: TradingEvent): boolean {
  return (
    event.type === 'xstate.done.actor.halt-recovery' &&
    context.halt !== null &&
    context.halt.reason === event.output.reason &&
    context.halt.since === event.output.since
  );
}

/** What the root's context tells the world (the heartbeat): its state, epoch, last cycle and halt. */
export type TradingContextView = Pick<TradingContext, 'state' | 'epoch' | 'lastCycle' | 'halt'>;

/** Adds `rememberControl` to each control transition, so the root always knows the current epoch. */
type ControlAction = 'acknowledge' | 'rememberControl';
type Remembered<T> = { [K in keyof T]: Omit<T[K], 'actions'> & { actions: ControlAction[] } };

function remembering<T extends Record<string, { readonly target?: string; readonly actions?: 'acknowledge' }>>(
  on: T,
): Remembered<T> {
  const out: Record<string, object> = {};
  for (const [event, transition] of Object.entries(on)) {
    const actions: ControlAction[] = transition.actions ? [transition.actions, 'rememberControl'] : ['rememberControl'];
    out[event] = { ...transition, actions };
  }
  return out as Remembered<T>;
}

/** What a fault with a new reason does, in any state: remember it, cancel open orders, say so. */
const HALT_ACTIONS = [
  'rememberHalt',
  'omsSafety',
  {
    type: 'announceHalt',
    params: ({ event }: { event: TradingEvent }) => ({ reason: event.type === 'safety.halt' ? event.reason : '' }),
  },
] as const;

/** What the end of a recovery does in any state: the halt is over (it was recorded), say so. */
const HALT_ENDED = ['endHalt', 'announceHaltEnded'] as const;

/** What a failed cycle actor brings, wherever it fails while running: a fresh actor, and the error reported. */
const REPLACE_FAILED_CYCLE_ACTOR = [
  'stopCycleActor',
  'spawnCycleActor',
  {
    type: 'reportCycleError',
    params: ({ context, event }: { context: TradingContext; event: { error?: unknown } }) => ({
      cycle: context.cycle,
      error: event.error,
    }),
  },
] as const;

export const tradingMachine = setup({
  types: {} as { context: TradingContext; input: TradingInput; events: TradingEvent },
  actors: {
    agent: agentMachine,
    arbiter: arbiterMachine,
    allocator: allocatorMachine,
    risk: riskMachine,
    oms: orderManagerMachine,
    cycle: cycleMachine,
    deleverage: deleverageMachine,
    flatten: flattenMachine,
    // Supplied by the composition root: reset the drawdown reference, audit it, complete the command.
    riskReset: fromPromise<void, { command: RiskResetRecord }>(async () => {
      throw new Error('riskReset was not provided');
    }),
    // Supplied by the composition root: cancel once more, then record the halt in the audit trail.
    recoverHalt: fromPromise<SafetyHalt, HaltRecoveryInput>(async () => {
      throw new Error('recoverHalt was not provided');
    }),
  },
  actions: {
    acknowledge: () => {},
    rememberControl: assign({
      epoch: ({ context, event }) => ('epoch' in event ? Math.max(context.epoch, event.epoch) : context.epoch),
    }),
    startNextCycle: assign({ cycle: ({ context }) => context.cycle + 1 }),
    spawnCycleActor: spawnChild('cycle', { id: CYCLE_ACTOR, input: cycleInput }),
    // Stopped with the cycle in flight (a halt, a failure): whatever answers it later reaches nobody.
    stopCycleActor: stopChild(CYCLE_ACTOR),
    beginCycle: sendTo(CYCLE_ACTOR, ({ context }) => ({
      type: 'cycle.begin' as const,
      cycle: context.cycle,
      epoch: context.epoch,
    })),
    rememberCycle: assign({ lastCycle: (_, params: { record: CycleRecord }) => params.record }),
    enterState: assign({ state: (_, params: { state: SystemState }) => params.state }),
    omsResume: sendTo(({ system }) => omsOf(system), { type: 'oms.resume' }),
    haltRisk: sendTo(
      ({ system }) => riskOf(system),
      ({ event }) => ({
        type: 'risk.halt' as const,
        reason: event.type === 'control.kill' ? `killed: ${event.reason}` : 'killed',
        at: event.type === 'control.kill' ? (event.at ?? null) : null,
      }),
    ),
    omsHalt: sendTo(({ system }) => omsOf(system), { type: 'oms.halt' }),
    omsKill: sendTo(
      ({ system }) => omsOf(system),
      ({ event }) => ({
        type: 'oms.kill',
        reason: 'reason' in event ? event.reason : 'killed',
        // Started killed: the kill's cancels ran before; `started killed` cancels what may rest.
        epoch: event.type === 'control.kill' ? event.epoch : null,
      }),
    ),
    omsCancel: sendTo(
      ({ system }) => omsOf(system),
      (_, params: { reason: string }) => ({
        type: 'oms.cancel' as const,
        reason: params.reason,
        symbols: null,
        receipt: null,
      }),
    ),
    rememberHalt: assign({
      halt: ({ context, event }) =>
        event.type === 'safety.halt' ? (haltOn(context.halt, event, event.at) ?? context.halt) : context.halt,
    }),
    markRecovering: assign({ recovering: true, faultDuringRecovery: null }),
    noteFaultDuringRecovery: assign({
      faultDuringRecovery: ({ context, event }) =>
        context.faultDuringRecovery ??
        (event.type === 'safety.halt' ? { reason: event.reason, message: event.message, at: event.at } : null),
    }),
    endHalt: assign({ halt: null, recovering: false, faultDuringRecovery: null }),
    /**
     * The recovery recorded the halt up to the passing check, but the same fault came back meanwhile:
     * that period is closed (it is in the audit trail), and a new halt begins when the fault was seen.
     */
    haltAgain: assign(({ context }) => {
      const fault = context.faultDuringRecovery!;
      return {
        halt: { reason: fault.reason, message: fault.message, since: fault.at, earlier: [] },
        recovering: false,
        faultDuringRecovery: null,
      };
    }),
    omsSafetyAgain: sendTo(
      ({ system }) => omsOf(system),
      ({ context }) => ({ type: 'oms.safety' as const, reason: context.halt?.reason ?? 'halt' }),
    ),
    /**
     * A recovery that finished after a new fault replaced its halt: what it recorded (that halt and the
     * ones it had replaced) is not recorded again when the new halt ends.
     */
    forgetRecorded: assign(({ context, event }) => {
      if (event.type !== 'xstate.done.actor.halt-recovery' || context.halt === null)
        return { recovering: false, faultDuringRecovery: null };
      const recorded = event.output.since;
      return {
        recovering: false,
        faultDuringRecovery: null,
        halt: { ...context.halt, earlier: context.halt.earlier.filter((h) => h.since > recorded) },
      };
    }),
    recoveryFailed: assign({ recovering: false, faultDuringRecovery: null }),
    /** Every safety.halt cancels open orders again (the last try may have failed with the store). */
    omsSafety: sendTo(
      ({ system }) => omsOf(system),
      ({ event }) => ({ type: 'oms.safety' as const, reason: event.type === 'safety.halt' ? event.reason : 'halt' }),
    ),
    // Side effects the composition root supplies (event lines, metrics); no-ops by default.
    announceCycleStart: (_, _params: { cycle: number }) => {},
    announceCycleEnd: (_, _params: { cycle: number }) => {},
    announceState: (_, _params: { state: SystemState; epoch: number }) => {},
    /** Queues the kill's cancel command (src/application/kill-switch.ts) when nobody did yet. */
    requestKillCancels: (_, _params: { epoch: number; reason: string }) => {},
    announceHalt: (_, _params: { reason: string }) => {},
    announceHaltEnded: () => {},
    reportRecoveryError: (_, _params: { error: unknown }) => {},
    reportCycle: (_, _params: { record: CycleRecord }) => {},
    reportCycleError: (_, _params: { cycle: number; error: unknown }) => {},
  },
  delays: {
    cycleInterval: ({ context }) => context.cycleMs,
  },
  guards: {
    thisCycleFinished: ({ context, event }) => event.type === 'cycle.finished' && event.cycle === context.cycle,
    bootsInto: ({ context }, params: { state: SystemState }) => context.boot === params.state,
    isHalted: ({ context }) => context.halt !== null,
    /** A fault whose reason is not the halt's already (observations repeat every tick). */
    newFault: ({ context, event }) => event.type === 'safety.halt' && context.halt?.reason !== event.reason,
    /** The checks pass while halted and no recovery runs yet. */
    mayRecover: ({ context }) => context.halt !== null && !context.recovering,
    /** A recovery runs (a fault with the halt's own reason then keeps the halt, see faultDuringRecovery). */
    isRecovering: ({ context }) => context.recovering,
    /** The recovery that ended recorded the halt still in force, and no fault came back meanwhile. */
    recoveredCurrent: ({ context, event }) => recordedCurrent(context, event) && context.faultDuringRecovery === null,
    /** The recovery recorded the halt still in force, but its fault came back meanwhile. */
    recordedButFaultBack: ({ context, event }) =>
      recordedCurrent(context, event) && context.faultDuringRecovery !== null,
  },
}).createMachine({
  id: 'trading',
  context: ({ input }) => ({
    epoch: input.control.epoch,
    state: input.control.state,
    boot: input.control.state,
    cycle: (input.firstCycle ?? 1) - 1,
    cycleMs: input.cycleMs,
    agentIds: input.strategies.map((s) => agentSystemId(s.name)),
    lastCycle: null,
    halt: input.halt ?? null,
    recovering: false,
    faultDuringRecovery: null,
    children: {
      strategies: input.strategies,
      instruments: input.instruments,
      arbitration: input.arbitration,
      allocation: input.allocation,
      risk: input.risk,
      ...(input.history ? { history: input.history } : {}),
    },
  }),
  entry: enqueueActions(({ context, enqueue }) => {
    context.children.strategies.forEach((strategy, i) => {
      const id = context.agentIds[i]!;
      const plan = context.children.history?.plans[i];
      enqueue.spawnChild('agent', {
        id,
        systemId: id,
        input: { strategy, instruments: context.children.instruments, ...(plan ? { plan } : {}) },
      });
    });
    enqueue.spawnChild('arbiter', { id: 'arbiter', systemId: 'arbiter', input: context.children.arbitration });
    enqueue.spawnChild('allocator', {
      id: 'allocator',
      systemId: 'allocator',
      input: {
        ...context.children.allocation,
        instruments: context.children.instruments,
        limits: context.children.risk.limits,
        ...(context.children.risk.feeRate !== undefined ? { feeRate: context.children.risk.feeRate } : {}),
        ...(context.children.risk.slippageBps !== undefined ? { slippageBps: context.children.risk.slippageBps } : {}),
        ...(context.children.risk.markPrice !== undefined ? { markPrice: context.children.risk.markPrice } : {}),
      },
    });
    enqueue.spawnChild('risk', {
      id: 'risk',
      systemId: 'risk',
      input: { ...context.children.risk, instruments: context.children.instruments },
    });
    enqueue.spawnChild('oms', { id: 'oms', systemId: 'oms' });
    // A start already in a safety halt (the preflight found a fault) says so, as a later halt does:
    // the operator's event lines and alerts must not depend on when the fault was first seen.
    if (context.halt) enqueue({ type: 'announceHalt', params: { reason: context.halt.reason } });
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [
        // A start on a killed store cancels what may still rest at the venue (the kill's own cancels ran before).
        {
          guard: { type: 'bootsInto', params: { state: 'killed' } },
          target: 'control.killed',
          actions: { type: 'omsCancel', params: { reason: 'started killed' } },
        },
        { guard: { type: 'bootsInto', params: { state: 'paused' } }, target: 'control.paused' },
        { target: 'control.running' },
      ],
    },
    control: {
      initial: 'running',
      states: {
        running: {
          on: {
            ...remembering(controlStates.running.on),
            // The halt stops the cycle in flight (its actor is replaced): nothing it approved is submitted.
            'safety.halt': {
              guard: 'newFault',
              target: '.halted',
              actions: [...HALT_ACTIONS, 'stopCycleActor', 'spawnCycleActor'],
            },
            // The cycle actor failed with no cycle in flight (`cycling` handles its own): replaced at
            // once, or the next `cycle.begin` would reach a stopped actor and the root would wait in
            // `cycling` for ever (the cycle's deadline lives in that actor). Reported as a crash.
            'xstate.error.actor.cycle': {
              actions: REPLACE_FAILED_CYCLE_ACTOR,
            },
          },
          // One cycle actor for the running period, told each cycle to begin (cycle.machine.ts): a pause
          // or kill stops it with the cycle in flight.
          entry: [
            'spawnCycleActor',
            'omsResume',
            { type: 'enterState', params: { state: 'running' } },
            { type: 'announceState', params: ({ context }) => ({ state: 'running', epoch: context.epoch }) },
          ],
          exit: 'stopCycleActor',
          // A resume (or the start) while halted for safety lands in `halted`, not in a cycle.
          initial: 'entering',
          states: {
            entering: { always: [{ guard: 'isHalted', target: 'halted' }, { target: 'cycling' }] },
            halted: {
              entry: 'omsHalt',
              on: {
                'xstate.done.actor.halt-recovery': {
                  guard: 'recoveredCurrent',
                  target: 'cycling',
                  actions: [...HALT_ENDED, 'omsResume'],
                },
              },
            },
            cycling: {
              entry: [
                'startNextCycle',
                { type: 'announceCycleStart', params: ({ context }) => ({ cycle: context.cycle }) },
                'beginCycle',
              ],
              exit: { type: 'announceCycleEnd', params: ({ context }) => ({ cycle: context.cycle }) },
              on: {
                'cycle.finished': {
                  guard: 'thisCycleFinished',
                  target: 'waiting',
                  actions: [
                    { type: 'rememberCycle', params: ({ event }) => ({ record: event.record }) },
                    { type: 'reportCycle', params: ({ event }) => ({ record: event.record }) },
                  ],
                },
                // The cycle actor failed (an action threw): the cycle ends unrecorded, a fresh actor runs the next.
                'xstate.error.actor.cycle': {
                  target: 'waiting',
                  actions: REPLACE_FAILED_CYCLE_ACTOR,
                },
              },
            },
            waiting: { after: { cycleInterval: 'cycling' } },
          },
        },
        paused: {
          on: remembering(controlStates.paused.on),
          entry: [
            'omsHalt',
            { type: 'enterState', params: { state: 'paused' } },
            { type: 'announceState', params: ({ context }) => ({ state: 'paused', epoch: context.epoch }) },
          ],
        },
        killed: {
          ...controlStates.killed,
          entry: [
            'omsKill',
            // The risk engine halts with the kill: no cycle order passes, a command's close still does.
            'haltRisk',
            // The kill's cancels are its command (kill_cancels, one per kill epoch): queued here too,
            // idempotently, in case the API could not queue it; the order manager runs it once.
            {
              type: 'requestKillCancels',
              params: ({ context, event }) => ({
                epoch: context.epoch,
                reason: 'reason' in event ? event.reason : 'killed',
              }),
            },
            { type: 'enterState', params: { state: 'killed' } },
            { type: 'announceState', params: ({ context }) => ({ state: 'killed', epoch: context.epoch }) },
          ],
        },
      },
    },
    stopped: { type: 'final' },
  },
  on: {
    'session.stop': '.stopped',
    // Paused or killed: remember the halt and cancel every open order; the state stays as it is.
    'safety.halt': [
      { guard: 'newFault', actions: HALT_ACTIONS },
      { guard: 'isRecovering', actions: 'noteFaultDuringRecovery' },
    ],
    // The checks pass: the halt ends only once the recovery (cancel, audit) succeeded.
    'safety.clear': {
      guard: 'mayRecover',
      actions: [
        spawnChild('recoverHalt', {
          id: 'halt-recovery',
          input: ({ context, event }) => ({ halt: context.halt!, until: (event as { at: number }).at }),
        }),
        'markRecovering',
      ],
    },
    'xstate.done.actor.halt-recovery': [
      { guard: 'recoveredCurrent', actions: HALT_ENDED },
      {
        guard: 'recordedButFaultBack',
        actions: [
          'haltAgain',
          'announceHaltEnded',
          { type: 'announceHalt', params: ({ context }) => ({ reason: context.halt?.reason ?? '' }) },
          'omsSafetyAgain',
        ],
      },
      { actions: 'forgetRecorded' },
    ],
    'xstate.error.actor.halt-recovery': {
      actions: ['recoveryFailed', { type: 'reportRecoveryError', params: ({ event }) => ({ error: event.error }) }],
    },
    // Commands only lower risk, so they are taken in every state. Cancels go to the order manager; a
    // deleverage gets its own actor, which takes its order through risk like every other order. A
    // drawdown reset opens nothing itself (new orders still pass every guard), so it runs in any state.
    'command.received': [
      {
        guard: ({ event }) => event.command.type === 'deleverage',
        actions: spawnChild('deleverage', {
          // One actor per claim: a retried command (its lease expired) gets a fresh one.
          id: ({ event }) => {
            const { command } = event as CommandReceived;
            return `deleverage:${command.id}:${command.attempts}`;
          },
          input: ({ event }) => ({ command: (event as CommandReceived).command }),
        }),
      },
      {
        // A flatten too: its closes go through risk and the order manager, round after round until flat.
        guard: ({ event }) => event.command.type === 'flatten',
        actions: spawnChild('flatten', {
          id: ({ event }) => {
            const { command } = event as CommandReceived;
            return `flatten:${command.id}:${command.attempts}`;
          },
          input: ({ event }) => ({ command: (event as CommandReceived).command }),
        }),
      },
      {
        guard: ({ event }) => event.command.type === 'risk_reset',
        actions: spawnChild('riskReset', {
          id: ({ event }) => {
            const { command } = event as CommandReceived;
            return `risk-reset:${command.id}:${command.attempts}`;
          },
          input: ({ event }) => ({ command: (event as CommandReceived).command as RiskResetRecord }),
        }),
      },
      {
        actions: sendTo(
          ({ system }) => omsOf(system),
          ({ event }) => ({ type: 'oms.command' as const, command: event.command as CancelCommandRecord }),
        ),
      },
    ],
  },
});

/** The root event that brings the root to a stored record's state. */
export function controlEventFor(record: ControlRecord): RootControlEvent {
  const reason = record.reason ?? '';
  const changed = Date.parse(record.changed_at);
  const at = Number.isFinite(changed) ? { at: changed } : {};
  switch (record.state) {
    case 'running':
      return { type: 'control.resume', reason, epoch: record.epoch, ...at };
    case 'paused':
      return { type: 'control.pause', reason, epoch: record.epoch, ...at };
    case 'killed':
      return { type: 'control.kill', reason, epoch: record.epoch, ...at };
  }
}

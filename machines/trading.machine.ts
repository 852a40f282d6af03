/**
 * The root statechart of the trading process. Its `control` region is the one control definition
 * (machines/control.machine.ts: running ⇄ paused → killed), extended with what each state does here:
 *  - running: a cycle at once, then one every `cycleInterval` after the previous ends;
 *  - paused: no cycle runs; the order manager halts (open orders stay);
 *  - killed: final for the control region; the cycle in flight is stopped, the order manager stops
 *    and cancels every open order. The root itself stays alive so cancels and risk-reducing
 *    commands still run; only `session.stop` (process shutdown) ends it.
 * Queued commands arrive as `command.received` in every state: cancels go to the order manager, and
 * each deleverage gets a `deleverage` actor that takes it through risk and the order manager.
 * At entry the root spawns its children with systemIds: one actor per strategy agent
 * (`agent:<name>`), `arbiter`, `allocator`, `risk` and `oms`. `starting` jumps straight to the state
 * the store holds, so no cycle can start before the process knows it is paused or killed.
 * A safety halt (SafetyEvent: the store or the control plane was lost) is orthogonal to the control
 * state: in any state it cancels every open order, and while running it holds the root in
 * `running.halted` (no cycle, the order manager halted) until `safety.clear`.
 */
import { assign, enqueueActions, sendTo, setup, spawnChild } from 'xstate';
import type { ArbitrationOptions } from '../src/domain/arbitration.js';
import type { ControlRecord, SystemState } from '../src/domain/control.js';
import type { Instrument } from '../src/domain/market.js';
import type { StrategyAgent } from '../src/domain/strategy-agent.js';
import { agentMachine } from './agent.machine.js';
import { allocatorMachine } from './allocator.machine.js';
import type { AllocatorInput } from './allocator.machine.js';
import { arbiterMachine } from './arbiter.machine.js';
import { controlStates } from './control.machine.js';
import { cycleMachine } from './cycle.machine.js';
import type { CycleRecord } from './cycle.machine.js';
import { deleverageMachine } from './deleverage.machine.js';
import type { CommandReceived } from './messages.js';
import { orderManagerMachine } from './order-manager.machine.js';
import { riskMachine } from './risk.machine.js';
import type { RiskInput } from './risk.machine.js';
import { agentSystemId, omsOf } from './system.js';

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
  halt?: string | null;
  /** The first cycle's number: after a restart, one past the last recorded cycle; 1 by default. */
  firstCycle?: number;
}

/** Control events as the root receives them: the API's events plus the epoch the store assigned. */
export type RootControlEvent =
  | { type: 'control.pause'; reason: string; epoch: number }
  | { type: 'control.resume'; reason: string; epoch: number }
  | { type: 'control.kill'; reason: string; epoch: number };

/**
 * The safety halt, orthogonal to the control state: the trading process lost its store, found it
 * emptied, replaced or rolled back, or lost sight of the control plane. While halted nothing new is
 * opened (no cycle runs, the order manager refuses submissions) and every open order is cancelled;
 * `safety.clear` comes only when the store and the control record agree again.
 */
export type SafetyEvent = { type: 'safety.halt'; reason: string } | { type: 'safety.clear' };

export type TradingEvent = RootControlEvent | CommandReceived | SafetyEvent | { type: 'session.stop' };

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
  /** Why trading is halted for safety, null when it is not (see SafetyEvent). */
  halt: string | null;
  children: Omit<TradingInput, 'control' | 'cycleMs' | 'firstCycle'>;
}

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

/** What every safety.halt does, in any state: remember why, cancel open orders, say so. */
const HALT_ACTIONS = [
  'rememberHalt',
  'omsSafety',
  {
    type: 'announceHalt',
    params: ({ event }: { event: TradingEvent }) => ({ reason: event.type === 'safety.halt' ? event.reason : '' }),
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
  },
  actions: {
    acknowledge: () => {},
    rememberControl: assign({
      epoch: ({ context, event }) => ('epoch' in event ? Math.max(context.epoch, event.epoch) : context.epoch),
    }),
    startNextCycle: assign({ cycle: ({ context }) => context.cycle + 1 }),
    rememberCycle: assign({ lastCycle: (_, params: { record: CycleRecord }) => params.record }),
    enterState: assign({ state: (_, params: { state: SystemState }) => params.state }),
    omsResume: sendTo(({ system }) => omsOf(system), { type: 'oms.resume' }),
    omsHalt: sendTo(({ system }) => omsOf(system), { type: 'oms.halt' }),
    omsKill: sendTo(
      ({ system }) => omsOf(system),
      ({ event }) => ({ type: 'oms.kill', reason: 'reason' in event ? event.reason : 'killed' }),
    ),
    rememberHalt: assign({ halt: ({ event }) => (event.type === 'safety.halt' ? event.reason : null) }),
    clearHalt: assign({ halt: null }),
    /** Every safety.halt cancels open orders again (the last try may have failed with the store). */
    omsSafety: sendTo(
      ({ system }) => omsOf(system),
      ({ event }) => ({ type: 'oms.safety' as const, reason: event.type === 'safety.halt' ? event.reason : 'halt' }),
    ),
    // Side effects the composition root supplies (event lines, metrics); no-ops by default.
    announceCycleStart: (_, _params: { cycle: number }) => {},
    announceCycleEnd: (_, _params: { cycle: number }) => {},
    announceState: (_, _params: { state: SystemState; epoch: number }) => {},
    announceHalt: (_, _params: { reason: string }) => {},
    announceHaltEnded: () => {},
    reportCycle: (_, _params: { record: CycleRecord }) => {},
    reportCycleError: (_, _params: { cycle: number; error: unknown }) => {},
  },
  delays: {
    cycleInterval: ({ context }) => context.cycleMs,
  },
  guards: {
    bootsInto: ({ context }, params: { state: SystemState }) => context.boot === params.state,
    isHalted: ({ context }) => context.halt !== null,
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
    children: {
      strategies: input.strategies,
      instruments: input.instruments,
      arbitration: input.arbitration,
      allocation: input.allocation,
      risk: input.risk,
    },
  }),
  entry: enqueueActions(({ context, enqueue }) => {
    context.children.strategies.forEach((strategy, i) => {
      const id = context.agentIds[i]!;
      enqueue.spawnChild('agent', { id, systemId: id, input: { strategy, instruments: context.children.instruments } });
    });
    enqueue.spawnChild('arbiter', { id: 'arbiter', systemId: 'arbiter', input: context.children.arbitration });
    enqueue.spawnChild('allocator', {
      id: 'allocator',
      systemId: 'allocator',
      input: {
        ...context.children.allocation,
        instruments: context.children.instruments,
        limits: context.children.risk.limits,
      },
    });
    enqueue.spawnChild('risk', {
      id: 'risk',
      systemId: 'risk',
      input: { ...context.children.risk, instruments: context.children.instruments },
    });
    enqueue.spawnChild('oms', { id: 'oms', systemId: 'oms' });
  }),
  initial: 'starting',
  states: {
    starting: {
      always: [
        { guard: { type: 'bootsInto', params: { state: 'killed' } }, target: 'control.killed' },
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
            'safety.halt': { target: '.halted', actions: HALT_ACTIONS },
          },
          entry: [
            'omsResume',
            { type: 'enterState', params: { state: 'running' } },
            { type: 'announceState', params: ({ context }) => ({ state: 'running', epoch: context.epoch }) },
          ],
          // A resume (or the start) while halted for safety lands in `halted`, not in a cycle.
          initial: 'entering',
          states: {
            entering: { always: [{ guard: 'isHalted', target: 'halted' }, { target: 'cycling' }] },
            halted: {
              entry: 'omsHalt',
              on: {
                'safety.clear': { target: 'cycling', actions: ['clearHalt', 'omsResume', 'announceHaltEnded'] },
              },
            },
            cycling: {
              entry: [
                'startNextCycle',
                { type: 'announceCycleStart', params: ({ context }) => ({ cycle: context.cycle }) },
              ],
              exit: { type: 'announceCycleEnd', params: ({ context }) => ({ cycle: context.cycle }) },
              invoke: {
                src: 'cycle',
                input: ({ context }) => ({ cycle: context.cycle, epoch: context.epoch, agentIds: context.agentIds }),
                onDone: {
                  target: 'waiting',
                  actions: [
                    { type: 'rememberCycle', params: ({ event }) => ({ record: event.output }) },
                    { type: 'reportCycle', params: ({ event }) => ({ record: event.output }) },
                  ],
                },
                onError: {
                  target: 'waiting',
                  actions: {
                    type: 'reportCycleError',
                    params: ({ context, event }) => ({ cycle: context.cycle, error: event.error }),
                  },
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
    'safety.halt': { actions: HALT_ACTIONS },
    'safety.clear': { guard: 'isHalted', actions: ['clearHalt', 'announceHaltEnded'] },
    // Commands only lower risk, so they are taken in every state. Cancels go to the order manager; a
    // deleverage gets its own actor, which takes its order through risk like every other order.
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
        actions: sendTo(
          ({ system }) => omsOf(system),
          ({ event }) => ({ type: 'oms.command' as const, command: event.command }),
        ),
      },
    ],
  },
});

/** The root event that brings the root to a stored record's state. */
export function controlEventFor(record: ControlRecord): RootControlEvent {
  const reason = record.reason ?? '';
  switch (record.state) {
    case 'running':
      return { type: 'control.resume', reason, epoch: record.epoch };
    case 'paused':
      return { type: 'control.pause', reason, epoch: record.epoch };
    case 'killed':
      return { type: 'control.kill', reason, epoch: record.epoch };
  }
}

/**
 * The root statechart with this process's implementations supplied through `.provide()`: the order
 * manager's job executor, the cycle's market load and decision record, the deleverage and flatten
 * actors' preparation and completion, the halt's recovery, and the announcements that become event lines and
 * heartbeats. Only wiring: what each implementation does lives in src/application/. Implementations
 * reach other actors through the `system` XState gives them (the order manager for a cancel, the root
 * to report back to), never through a reference to an actor made later.
 */
import type { Logger } from 'pino';
import { fromPromise } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { cycleMachine } from '../../../machines/cycle.machine.js';
import { deleverageMachine } from '../../../machines/deleverage.machine.js';
import type { CommandResult, PreparedDeleverage } from '../../../machines/deleverage.machine.js';
import { flattenMachine } from '../../../machines/flatten.machine.js';
import type { PreparedFlatten } from '../../../machines/flatten.machine.js';
import type { CycleIoReply, CycleRecord, LoadedMarket } from '../../../machines/cycle.machine.js';
import type { AgentError, SignalsReply, SubmissionOutcome } from '../../../machines/messages.js';
import type { Proposal } from '../../domain/allocation.js';
import { orderManagerMachine } from '../../../machines/order-manager.machine.js';
import type { OmsMode } from '../../../machines/order-manager.machine.js';
import { findOms, riskOf, riskStateOf, rootOf } from '../../../machines/system.js';
import { riskMachine } from '../../../machines/risk.machine.js';
import type { RiskStateChange, RiskStateRecord } from '../../domain/risk/trading-state.js';
import type { DrawdownResetDone } from '../../application/risk-reset.js';
import type { AnyActorSystem } from '../../../machines/system.js';
import { tradingMachine } from '../../../machines/trading.machine.js';
import type { HaltRecoveryInput, TradingContextView } from '../../../machines/trading.machine.js';
import type { CommandRecord, RiskResetRecord } from '../../domain/commands.js';
import { eventLine } from '../../domain/event-lines.js';
import type { SafetyHalt } from '../../domain/halts.js';
import type { Clock } from '../../ports/clock.js';
import type { TradingEvents } from '../../ports/trading-events.js';
import type { CycleLinks } from '../../application/cycle-io.js';
import type { JobExecutor } from '../../application/order-execution.js';
import type { CancelRequest } from '../../application/oms-cancel.js';

export interface TradingMachineImplementations {
  clock: Clock;
  events: TradingEvents;
  log: Logger;
  /** What a cycle's steps and a halt's recovery reach in the running system, from XState's `system`. */
  links(system: AnyActorSystem): CycleLinks;
  executeJob: JobExecutor;
  loadMarket(input: { cycle: number; epoch: number }, links: CycleLinks): Promise<LoadedMarket>;
  recordDecision(record: CycleRecord, links: CycleLinks): Promise<void>;
  prepareDeleverage(command: CommandRecord): Promise<PreparedDeleverage>;
  /** One round of a flatten: the closes from the live positions (src/application/flatten.ts). */
  prepareFlatten(command: CommandRecord, round: number): Promise<PreparedFlatten>;
  /** An operator's drawdown reset: the venue's peak NAV := NAV, audited, the command completed. */
  resetRisk(command: RiskResetRecord): Promise<DrawdownResetDone>;
  /** The risk engine's state changed: event line, audit entry, stored state (src/application/risk-state.ts). */
  riskStateChanged(change: RiskStateChange): void;
  completeCommand(command: CommandRecord, result: CommandResult): Promise<void>;
  recoverHalt(input: HaltRecoveryInput, cancel: CancelRequest): Promise<SafetyHalt>;
  /** A safety halt began (or a new reason replaced the one in force): recorded if the store takes it. */
  haltStarted(halt: SafetyHalt): void;
  /** Queues the kill's cancel command (idempotent) and hands queued commands to the root. */
  requestKillCancels(epoch: number, reason: string, root: AnyActorRef): void;
  /** A command's work ended (done or failed); it may be claimed again after its lease. */
  commandSettled(commandId: string): void;
  /** An agent's analysis ended with these errors (none: it ran clean): lines, warnings, failing state. */
  agentAnalysed(agent: string, errors: readonly AgentError[], invalid: SignalsReply['invalid']): void;
  cycleStarted(cycle: number): void;
  /** Returns the cycle's duration in ms. */
  cycleEnded(cycle: number): number;
  /** The root's state, halt or last cycle changed (or the risk engine's): the heartbeat says so to the API. */
  rootChanged(view: TradingContextView & { risk: RiskStateRecord | null }): void;
  cycleReported(record: CycleRecord | null, error?: unknown): void;
}

/** The order manager's mode, read synchronously from its snapshot; `stopped` once it is gone. */
function omsModeIn(system: AnyActorSystem): OmsMode {
  const oms = findOms(system)?.getSnapshot();
  if (!oms) return 'stopped';
  if (oms.matches({ mode: 'accepting' })) return 'accepting';
  return oms.matches({ mode: 'stopped' }) ? 'stopped' : 'halted';
}

/**
 * Runs one of the cycle's I/O steps and answers the cycle actor with its outcome, naming the cycle.
 * An actor stopped meanwhile (a pause, kill or halt stops it from outside) is not answered: there is
 * nobody left to hear it; an answer that outlived its cycle is dropped by the actor (CycleIoReply).
 */
function answer<T>(
  cycle: AnyActorRef,
  work: Promise<T>,
  done: (value: T) => CycleIoReply,
  failed: (error: unknown) => CycleIoReply,
): void {
  const reply = (event: CycleIoReply) => {
    if (cycle.getSnapshot().status === 'active') cycle.send(event);
  };
  work.then(
    (value) => reply(done(value)),
    (error: unknown) => reply(failed(error)),
  );
}

/** An agent's reply: its signals as lines, then its errors (lines, warnings, failing state). */
function announceReply(
  impl: TradingMachineImplementations,
  reply: Pick<SignalsReply, 'agent' | 'signals' | 'errors' | 'invalid'>,
): void {
  for (const s of reply.signals) impl.events.emit(eventLine.signalGenerated(s));
  impl.agentAnalysed(reply.agent, reply.errors, reply.invalid);
}

/** The actors that carry out a deleverage or flatten command through risk and the order manager. */
function commandActors(impl: TradingMachineImplementations) {
  const settled = (_: unknown, { commandId }: { commandId: string }) => impl.commandSettled(commandId);
  return {
    deleverage: deleverageMachine.provide({
      actors: {
        prepare: fromPromise(({ input }) => impl.prepareDeleverage(input.command)),
        complete: fromPromise(({ input }) => impl.completeCommand(input.command, input.result)),
      },
      actions: { settled },
    }),
    flatten: flattenMachine.provide({
      actors: {
        prepare: fromPromise(({ input }) => impl.prepareFlatten(input.command, input.round)),
        complete: fromPromise(async ({ input }) => {
          await impl.completeCommand(input.command, input.result);
          impl.events.emit(eventLine.flattenCompleted(input.command.id, input.result));
        }),
      },
      actions: { settled },
    }),
  };
}

/**
 * The drawdown reset, then the risk engine is told (it leaves `reducing`); a failure leaves the
 * command claimed, so it is retried once its lease expires.
 */
function riskResetActor(impl: TradingMachineImplementations) {
  return fromPromise<void, { command: RiskResetRecord }>(async ({ input, system }) => {
    try {
      const done = await impl.resetRisk(input.command);
      riskOf(system).send({
        type: 'risk.reset',
        reason: input.command.payload.reason,
        at: done.at,
        nav: done.nav,
        peakNav: done.peakNav,
      });
    } catch (err) {
      impl.log.error({ err, command: input.command.id }, 'drawdown reset failed');
    } finally {
      impl.commandSettled(input.command.id);
    }
  });
}

/** Each protective exit that filled, as a position_exit line after its order_filled line. */
function announceExits(
  impl: TradingMachineImplementations,
  proposals: readonly Proposal[],
  outcomes: readonly SubmissionOutcome[],
): void {
  for (const p of proposals) {
    if (!p.exit || !p.order) continue;
    const id = p.order.clientOrderId;
    const done = outcomes.find((o) => o.clientOrderId === id);
    if (done?.status !== 'submitted' || done.filledQty <= 0 || done.avgFillPrice === null) continue;
    const fill = { qty: done.filledQty, price: done.avgFillPrice };
    impl.events.emit(eventLine.positionExit(p.order, p.signal.agent, p.exit, fill));
  }
}

/** One cycle: its I/O steps answer it by events (see answer), its announcements write event lines. */
function cycleActor(impl: TradingMachineImplementations) {
  const { events, links } = impl;
  return cycleMachine.provide({
    actions: {
      loadMarket: ({ self, system }, input) =>
        answer(
          self,
          impl.loadMarket(input, links(system)),
          (output) => ({ type: 'cycle.market.loaded', cycle: input.cycle, output }),
          (error) => ({ type: 'cycle.market.failed', cycle: input.cycle, error }),
        ),
      recordDecision: ({ self, system }, record) =>
        answer(
          self,
          impl.recordDecision(record, links(system)),
          () => ({ type: 'cycle.recorded', cycle: record.cycle }),
          (error) => ({ type: 'cycle.record.failed', cycle: record.cycle, error }),
        ),
      announceSignals: (_, reply) => announceReply(impl, reply),
      announceExits: (_, { proposals, outcomes }) => announceExits(impl, proposals, outcomes),
      announceVerdicts: (_, { verdicts }) => {
        for (const v of verdicts) {
          if (v.approval) events.emit(eventLine.riskApproved(v.order.symbol, v.order.qty, v.approval.token));
          else for (const c of v.decision.checks) if (!c.passed) events.emit(eventLine.riskRejected(v.order.symbol, c));
        }
      },
    },
  });
}

/** The risk engine, its state changes recorded and told to the API through the heartbeat at once. */
function riskActor(impl: TradingMachineImplementations) {
  return riskMachine.provide({
    actions: {
      announceRiskState: ({ system }, change) => {
        impl.riskStateChanged(change);
        const root = (rootOf(system).getSnapshot() as { context: TradingContextView }).context;
        const risk = { state: change.to, since: change.at, reason: change.reason, peakNav: change.peakNav };
        impl.rootChanged({ ...root, risk });
      },
    },
  });
}

export function provideTradingMachine(impl: TradingMachineImplementations) {
  const { events, log, links } = impl;
  return tradingMachine.provide({
    actors: {
      risk: riskActor(impl),
      oms: orderManagerMachine.provide({
        actors: {
          executeJob: fromPromise(async ({ input, signal, system }) => {
            const command = input.job.kind === 'cancel' ? input.job.command : null;
            try {
              return await impl.executeJob(input.job, { signal, mode: () => omsModeIn(system) });
            } catch (err) {
              // The order manager turns this into refusals / a lease retry; it must still be seen.
              log.error({ err, job: command?.id ?? input.job.kind }, 'job failed');
              throw err;
            } finally {
              if (command) impl.commandSettled(command.id);
            }
          }),
        },
      }),
      cycle: cycleActor(impl),
      ...commandActors(impl),
      riskReset: riskResetActor(impl),
      recoverHalt: fromPromise(({ input, system }) => impl.recoverHalt(input, links(system).cancel)),
    },
    actions: {
      announceCycleStart: (_, { cycle }) => {
        impl.cycleStarted(cycle);
        events.emit(eventLine.cycleStart(cycle, impl.clock.now()));
      },
      announceCycleEnd: (_, { cycle }) => events.emit(eventLine.cycleEnd(cycle, impl.cycleEnded(cycle))),
      announceState: ({ context, system }, { state, epoch }) => {
        impl.rootChanged({ ...context, risk: riskStateOf(system) });
        events.emit(eventLine.controlChanged(state, epoch));
      },
      requestKillCancels: ({ system }, { epoch, reason }) => impl.requestKillCancels(epoch, reason, rootOf(system)),
      announceHalt: ({ context, system }, { reason }) => {
        log.error({ reason }, `trading halted: ${context.halt?.message ?? reason}`);
        events.emit(eventLine.tradingHalted(reason));
        if (context.halt) impl.haltStarted(context.halt);
        impl.rootChanged({ ...context, risk: riskStateOf(system) });
      },
      announceHaltEnded: ({ context, system }) => {
        log.info('trading halt ended: recorded in the audit trail, open orders cancelled once more');
        events.emit(eventLine.tradingHaltEnded());
        impl.rootChanged({ ...context, risk: riskStateOf(system) });
      },
      reportRecoveryError: (_, { error }) =>
        log.warn({ err: error }, 'the halt cannot end yet: cancelling open orders or recording it failed'),
      reportCycle: ({ context, system }, { record }) => {
        impl.cycleReported(record);
        impl.rootChanged({ ...context, risk: riskStateOf(system) });
      },
      reportCycleError: ({ context, system }, { error }) => {
        impl.cycleReported(null, error);
        impl.rootChanged({ ...context, risk: riskStateOf(system) });
      },
    },
  });
}

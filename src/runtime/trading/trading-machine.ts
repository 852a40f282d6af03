/**
 * The root statechart with this process's implementations supplied through `.provide()`: the order
 * manager's job executor, the cycle's market load and decision record, the deleverage actor's
 * preparation and completion, and the announcements that become event lines. Only wiring: what each
 * implementation does lives in src/application/.
 */
import type { Logger } from 'pino';
import { fromPromise } from 'xstate';
import { cycleMachine } from '../../../machines/cycle.machine.js';
import { deleverageMachine } from '../../../machines/deleverage.machine.js';
import type { CommandResult, PreparedDeleverage } from '../../../machines/deleverage.machine.js';
import type { CycleRecord, LoadedMarket } from '../../../machines/cycle.machine.js';
import { orderManagerMachine } from '../../../machines/order-manager.machine.js';
import { tradingMachine } from '../../../machines/trading.machine.js';
import type { CommandRecord } from '../../domain/commands.js';
import type { SystemState } from '../../domain/control.js';
import { eventLine } from '../../domain/event-lines.js';
import type { Clock } from '../../ports/clock.js';
import type { TradingEvents } from '../../ports/trading-events.js';
import type { JobExecutor } from '../../application/order-execution.js';

export interface TradingMachineImplementations {
  clock: Clock;
  events: TradingEvents;
  log: Logger;
  executeJob: JobExecutor;
  loadMarket(input: { cycle: number; epoch: number }): Promise<LoadedMarket>;
  recordDecision(record: CycleRecord): Promise<void>;
  prepareDeleverage(command: CommandRecord): Promise<PreparedDeleverage>;
  completeCommand(command: CommandRecord, result: CommandResult): Promise<void>;
  /** A command's work ended (done or failed); it may be claimed again after its lease. */
  commandSettled(commandId: string): void;
  cycleStarted(cycle: number): void;
  /** Returns the cycle's duration in ms. */
  cycleEnded(cycle: number): number;
  stateEntered(state: SystemState): void;
  /** A safety halt began or ended (the heartbeat says so to the API). */
  haltChanged(): void;
  cycleReported(record: CycleRecord | null, error?: unknown): void;
}

export function provideTradingMachine(impl: TradingMachineImplementations) {
  const { events, log } = impl;
  return tradingMachine.provide({
    actors: {
      oms: orderManagerMachine.provide({
        actors: {
          executeJob: fromPromise(async ({ input, signal }) => {
            try {
              return await impl.executeJob(input.job, signal);
            } catch (err) {
              // The order manager turns this into refusals / a lease retry; it must still be seen.
              log.error(
                { err, job: input.job.kind === 'command' ? input.job.command.id : input.job.kind },
                'job failed',
              );
              throw err;
            } finally {
              if (input.job.kind === 'command') impl.commandSettled(input.job.command.id);
            }
          }),
        },
      }),
      cycle: cycleMachine.provide({
        actors: {
          loadMarket: fromPromise(({ input }) => impl.loadMarket(input)),
          recordDecision: fromPromise(({ input }) => impl.recordDecision(input)),
        },
        actions: {
          announceSignals: (_, { signals }) => signals.forEach((s) => events.emit(eventLine.signalGenerated(s))),
          announceVerdicts: (_, { verdicts }) => {
            for (const v of verdicts) {
              if (v.approval) events.emit(eventLine.riskApproved(v.order.symbol, v.order.qty, v.approval.token));
              else
                for (const c of v.decision.checks)
                  if (!c.passed) events.emit(eventLine.riskRejected(v.order.symbol, c));
            }
          },
        },
      }),
      deleverage: deleverageMachine.provide({
        actors: {
          prepare: fromPromise(({ input }) => impl.prepareDeleverage(input.command)),
          complete: fromPromise(({ input }) => impl.completeCommand(input.command, input.result)),
        },
        actions: { settled: (_, { commandId }) => impl.commandSettled(commandId) },
      }),
    },
    actions: {
      announceCycleStart: (_, { cycle }) => {
        impl.cycleStarted(cycle);
        events.emit(eventLine.cycleStart(cycle, impl.clock.now()));
      },
      announceCycleEnd: (_, { cycle }) => events.emit(eventLine.cycleEnd(cycle, impl.cycleEnded(cycle))),
      announceState: (_, { state, epoch }) => {
        impl.stateEntered(state);
        events.emit(eventLine.controlChanged(state, epoch));
      },
      announceHalt: (_, { reason }) => {
        events.emit(eventLine.tradingHalted(reason));
        impl.haltChanged();
      },
      announceHaltEnded: () => {
        events.emit(eventLine.tradingHaltEnded());
        impl.haltChanged();
      },
      reportCycle: (_, { record }) => impl.cycleReported(record),
      reportCycleError: (_, { error }) => impl.cycleReported(null, error),
    },
  });
}

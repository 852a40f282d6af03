/**
 * The named parts of the trading process, built from the application layer and wired to each other
 * and to the root actor: publisher (account, heartbeat, metrics), control sync, command pump, order
 * gate and execution, command completion, deleverage preparation and cycle I/O; and the root machine
 * with them supplied. The root actor is reached through `actor()` because it is created from the
 * machine built here.
 */
import type { Logger } from 'pino';
import type { Actor } from 'xstate';
import { findOms } from '../../../machines/system.js';
import type { OmsMode } from '../../../machines/order-manager.machine.js';
import type { tradingMachine } from '../../../machines/trading.machine.js';
import { createCommandCompletion, createCommandRejection } from '../../application/command-completion.js';
import type { CompleteCommand } from '../../application/command-completion.js';
import { createCommandPump } from '../../application/command-pump.js';
import type { CommandPump } from '../../application/command-pump.js';
import { createControlSync } from '../../application/control-sync.js';
import { createCycleIo } from '../../application/cycle-io.js';
import { createDeleveragePreparation } from '../../application/deleverage.js';
import { createOrderExecution } from '../../application/order-execution.js';
import type { JobExecutor } from '../../application/order-execution.js';
import { createOrderGate } from '../../application/order-gate.js';
import { createPublisher } from '../../application/publisher.js';
import type { Publisher } from '../../application/publisher.js';
import type { TradingMetrics } from '../../adapters/metrics/trading-metrics.js';
import type { ControlRecord } from '../../domain/control.js';
import type { MarketView } from '../../domain/market.js';
import { UsedTokenLedger } from '../../domain/used-token-ledger.js';
import type { Clock } from '../../ports/clock.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { Store } from '../../ports/store.js';
import type { TradingEvents } from '../../ports/trading-events.js';
import type { Venue } from '../../ports/venue.js';
import type { TradingConfig } from './trading-config.js';
import { provideTradingMachine } from './trading-machine.js';

export interface TradingPartsDeps {
  config: TradingConfig;
  store: Store;
  /** The key-value store with the trading lease's fence on every write (the publisher's documents). */
  kv: KeyValueStore;
  venue: Venue;
  feed: MarketFeed;
  clock: Clock;
  log: Logger;
  events: TradingEvents;
  metrics: TradingMetrics;
  consumer: string;
  /** The last cycle recorded before this process started (0 on a fresh store), for the heartbeat until a cycle ends. */
  previousCycle: number;
  identity: { pid: number; host: string };
  actor(): Actor<typeof tradingMachine>;
}

/** The parts other parts and the root machine are built from. */
interface TradingParts {
  publisher: Publisher;
  syncControl(record: ControlRecord): void;
  commands: CommandPump;
  /** The market of the latest cycle. */
  market: { last: MarketView | null };
  completeCommand: CompleteCommand;
  executeJob: JobExecutor;
  prepareDeleverage: ReturnType<typeof createDeleveragePreparation>;
}

export function createTradingParts(
  deps: TradingPartsDeps,
): TradingParts & { machine: ReturnType<typeof provideTradingMachine> } {
  const { config, store, venue, clock, log, events, metrics } = deps;
  const root = () => deps.actor().getSnapshot().context;
  const publisher = createPublisher({
    kv: deps.kv,
    venue,
    clock,
    mode: config.executionMode,
    heartbeatMs: config.heartbeatMs,
    identity: deps.identity,
    metrics,
    root: () => {
      const { state, epoch, lastCycle, halt } = root();
      return {
        state,
        epoch,
        lastCycle: lastCycle?.cycle ?? deps.previousCycle,
        lastCycleAt: lastCycle?.now ?? null,
        halt,
      };
    },
  });
  const syncControl = createControlSync({ epoch: () => root().epoch, send: (event) => deps.actor().send(event) });
  const commands = createCommandPump(
    store.commands,
    clock,
    deps.consumer,
    (command) => deps.actor().send({ type: 'command.received', command }),
    createCommandRejection({ store, clock, events, log: (message, details) => log.error(details, message) }),
  );
  // The market of the latest cycle; commands between cycles act on it (or on a fresh read).
  const market = { last: null as MarketView | null };
  const currentMarket = async () => (market.last ??= await deps.feed.next(clock.now()));
  const completeCommand = createCommandCompletion({ store, clock, events, accountChanged: publisher.accountChanged });
  const gate = createOrderGate({
    control: store.control,
    clock,
    secret: config.hmacSecret,
    ledger: new UsedTokenLedger(),
    orderManagerMode: () => omsMode(deps.actor()),
  });
  const executeJob = createOrderExecution({
    venue,
    store,
    clock,
    mode: config.executionMode,
    events,
    gate,
    completeCommand,
    log,
    market: currentMarket,
    accountChanged: publisher.accountChanged,
  });
  const prepareDeleverage = createDeleveragePreparation({
    venue,
    control: store.control,
    clock,
    instruments: new Map(config.instruments.map((i) => [i.symbol, i])),
    market: currentMarket,
  });
  const parts = { publisher, syncControl, commands, market, completeCommand, executeJob, prepareDeleverage };
  return { ...parts, machine: machineWith(deps, parts) };
}

/** The root machine with the parts supplied, and the cycle's I/O built on them. */
function machineWith(deps: TradingPartsDeps, parts: Omit<ReturnType<typeof createTradingParts>, 'machine'>) {
  const { config, store, venue, clock, log, events, metrics } = deps;
  const cycleStarts = new Map<number, number>();
  const io = createCycleIo({
    store,
    venue,
    feed: deps.feed,
    clock,
    events,
    syncControl: parts.syncControl,
    circuitBreakerDrawdown: config.circuitBreakerDrawdown,
    maxDrawdown: config.riskLimits.maxDrawdown,
    instruments: config.instruments,
    pumpCommands: parts.commands.pump,
    rememberMarket: (market) => (parts.market.last = market),
    accountChanged: parts.publisher.accountChanged,
    cycleStartedAt: (cycle) => cycleStarts.get(cycle),
  });
  return provideTradingMachine({
    clock,
    events,
    log,
    executeJob: parts.executeJob,
    completeCommand: parts.completeCommand,
    loadMarket: io.loadMarket,
    recordDecision: io.recordDecision,
    prepareDeleverage: parts.prepareDeleverage,
    commandSettled: parts.commands.release,
    cycleStarted: (cycle) => cycleStarts.set(cycle, clock.now()),
    cycleEnded: (cycle) => {
      const started = cycleStarts.get(cycle) ?? clock.now();
      cycleStarts.delete(cycle);
      return Math.max(0, Math.round(clock.now() - started));
    },
    stateEntered: () =>
      void parts.publisher.heartbeat().catch((err: unknown) => log.warn({ err }, 'heartbeat write failed')),
    // After the action's macrostep, so the heartbeat reads the root's context with the halt applied.
    haltChanged: () =>
      queueMicrotask(
        () => void parts.publisher.heartbeat().catch((err: unknown) => log.debug({ err }, 'heartbeat write failed')),
      ),
    cycleReported: (record, error) => {
      metrics.cycles.inc({ outcome: record?.outcome ?? 'failed' });
      if (record?.error) log.error({ cycle: record.cycle, error: record.error }, 'cycle failed');
      if (error !== undefined) log.error({ err: error }, 'cycle crashed');
    },
  });
}

/** The order manager's mode, read synchronously from its snapshot; `stopped` once it is gone. */
function omsMode(actor: Actor<typeof tradingMachine>): OmsMode {
  const oms = findOms(actor.system)?.getSnapshot();
  if (!oms) return 'stopped';
  if (oms.matches({ mode: 'accepting' })) return 'accepting';
  return oms.matches({ mode: 'stopped' }) ? 'stopped' : 'halted';
}

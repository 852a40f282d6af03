/**
 * The named parts of the trading process, built from the application layer and wired to each other:
 * publisher (account, heartbeat, metrics), command pump, order gate and execution (the one way out to
 * the venue), job receipts, command completion, deleverage preparation, cycle I/O and halt recovery;
 * and the root machine with them supplied. Nothing here refers to the root actor: it is created from
 * the machine built here, and the implementations reach it through XState's `system` at run time.
 */
import type { Logger } from 'pino';
import type { AnyActorRef } from 'xstate';
import { omsOf, riskStateOf, rootOf } from '../../../machines/system.js';
import type { AnyActorSystem } from '../../../machines/system.js';
import type { CycleRecord } from '../../../machines/cycle.machine.js';
import { createCommandCompletion, createCommandRejection } from '../../application/command-completion.js';
import { createCommandPump } from '../../application/command-pump.js';
import type { CommandPump } from '../../application/command-pump.js';
import { createControlSync } from '../../application/control-sync.js';
import { createCycleIo } from '../../application/cycle-io.js';
import { createFillAudit } from '../../application/fill-audit.js';
import type { FillAudit } from '../../application/fill-audit.js';
import type { CycleLinks } from '../../application/cycle-io.js';
import { createDeleveragePreparation } from '../../application/deleverage.js';
import { createFlattenPreparation } from '../../application/flatten.js';
import { createHaltRecovery } from '../../application/halt-recovery.js';
import { HALT_START_UNRECORDED, recordHaltStart } from '../../application/halt-start.js';
import { createJobReceipts } from '../../application/job-receipts.js';
import { queueKillCancels } from '../../application/kill-switch.js';
import { cancelThroughOms } from '../../application/oms-cancel.js';
import { createOrderExecution } from '../../application/order-execution.js';
import { createOrderGate } from '../../application/order-gate.js';
import { createMarketFreshness } from '../../application/market-freshness.js';
import type { MarketFreshness } from '../../application/market-freshness.js';
import { createPublisher } from '../../application/publisher.js';
import { createRiskReset } from '../../application/risk-reset.js';
import { createRiskStateRecorder } from '../../application/risk-state.js';
import type { RiskStateRecorder } from '../../application/risk-state.js';
import type { Publisher } from '../../application/publisher.js';
import type { TradingMetrics } from '../../adapters/metrics/trading-metrics.js';
import type { AgentErrors } from '../../application/agent-errors.js';
import type { MarketView } from '../../domain/market.js';
import { UsedTokenLedger } from '../../domain/used-token-ledger.js';
import type { Clock } from '../../ports/clock.js';
import { monotonicNow } from '../../ports/clock.js';
import type { ClockStepWatch } from '../../application/clock-steps.js';
import { loggedClockSteps } from './clock-step-log.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { Store } from '../../ports/store.js';
import type { TradingEvents } from '../../ports/trading-events.js';
import type { Venue } from '../../ports/venue.js';
import type { TradingConfig } from './trading-config.js';
import { provideTradingMachine } from './trading-machine.js';
import { readDocument, writeDocument } from '../../ports/documents.js';
import { describeOrphans, orphanedPositions } from '../../domain/orphaned-positions.js';
import type { AccountSnapshot } from '../../domain/portfolio.js';
import { tellOperator } from '../tell-operator.js';
import { OWNERS_KEY, PROTECTION_KEY } from '../../domain/runtime-documents.js';
import { protectionEnabled } from '../../domain/protection.js';

export interface TradingPartsDeps {
  config: TradingConfig;
  store: Store;
  /** The key-value store with the trading lease's fence on every write (the publisher's documents). */
  kv: KeyValueStore;
  venue: Venue;
  feed: MarketFeed;
  clock: Clock;
  /** What the drawdown window is timed on (steady-clock.ts): the cycle's `steady` reading. */
  windowClock?: Clock;
  log: Logger;
  events: TradingEvents;
  metrics: TradingMetrics;
  consumer: string;
  /** The last cycle recorded before this process started (0 on a fresh store), for the heartbeat until a cycle ends. */
  previousCycle: number;
  identity: { pid: number; host: string };
  /** The configured strategies' agent names (a position whose agent is not among them is orphaned). */
  agents: ReadonlySet<string>;
  /** The strategies' errors: lines, rate-limited warnings and the failing state the heartbeat carries. */
  agentErrors: AgentErrors;
  /** False: nothing is published for an API (a simulation run): the publisher does nothing. */
  publishing: boolean;
}

/** The application's error reports (message, details) as error lines of the process's logger. */
function errorLog(log: Logger) {
  return (message: string, details: Record<string, unknown>) => log.error(details, message);
}

/** The publisher of a run no API reads (`tcs simulate`): it neither reads the venue nor writes. */
const SILENT_PUBLISHER: Publisher = {
  accountChanged: () => Promise.resolve(),
  accountChangedSoon: () => {},
  heartbeat: () => Promise.resolve(),
  metrics: () => Promise.resolve(),
};

export interface TradingParts {
  publisher: Publisher;
  /** The risk engine's state changes on their way to the store (awaited when the system settles). */
  riskStates: RiskStateRecorder;
  commands: CommandPump;
  /** Claims queued commands and hands them to `root`. */
  pumpInto(root: AnyActorRef): Promise<void>;
  /** Brings `root` to a stored record (the same path as store notifications). */
  syncControlOf(root: AnyActorRef): CycleLinks['syncControl'];
  machine: ReturnType<typeof provideTradingMachine>;
  /** Wall-clock steps, looked for on every safety tick; the last one rides the heartbeat to /health. */
  clockSteps: ClockStepWatch;
}

export function createTradingParts(deps: TradingPartsDeps): TradingParts {
  const { store, clock, log, events } = deps;
  deps.metrics.knowAgents([...deps.agents]);
  const clockSteps = loggedClockSteps(clock, log, deps.metrics);
  // Unpublished (tcs simulate): nobody scrapes the per-cycle metrics, so they are not kept at all.
  const metrics = deps.publishing ? deps.metrics : UNPUBLISHED_METRICS;
  const freshness = createMarketFreshness({ staleMs: deps.config.feedStaleMs, events, log, metrics });
  const publisher = deps.publishing ? publisherOf(deps, clockSteps, freshness) : SILENT_PUBLISHER;
  const commands = createCommandPump(
    store.commands,
    clock,
    deps.consumer,
    createCommandRejection({ store, clock, events, log: errorLog(log) }),
  );
  const pumpInto = (root: AnyActorRef) => commands.pump((command) => root.send({ type: 'command.received', command }));
  const syncControlOf = (root: AnyActorRef) =>
    createControlSync({
      epoch: () => (root.getSnapshot() as { context: { epoch: number } }).context.epoch,
      send: (event) => root.send(event),
    });
  const riskStates = createRiskStateRecorder({
    store,
    kv: deps.kv,
    clock,
    events,
    log: (message, details) => log.error(details, message),
  });
  return {
    publisher,
    riskStates,
    commands,
    pumpInto,
    syncControlOf,
    clockSteps,
    machine: machineWith(deps, publisher, commands, pumpInto, syncControlOf, riskStates, freshness),
  };
}

/** The account's positions no configured strategy closes (SYMBOLS, STRATEGIES and who opened each). */
function orphansOf(deps: TradingPartsDeps) {
  const listed = new Set(deps.config.instruments.map((i) => i.symbol));
  return async (account: AccountSnapshot) => {
    if (account.positions.every((p) => p.qty === 0)) return [];
    // Who opened each position: the protection state's memory; unreadable is "not known", never a fault here.
    const protection = await readDocument(deps.kv, PROTECTION_KEY).catch(() => null);
    return orphanedPositions(account.positions, { listed, agents: deps.agents, owners: protection?.positions ?? {} });
  };
}

/** What the trading process publishes for the API: the account, the heartbeat, the metrics. */
function publisherOf(deps: TradingPartsDeps, clockSteps: ClockStepWatch, freshness: MarketFreshness): Publisher {
  const { config, venue } = deps;
  let told = false;
  return createPublisher({
    kv: deps.kv,
    venue,
    clock: deps.clock,
    mode: config.executionMode,
    heartbeatMs: config.heartbeatMs,
    identity: deps.identity,
    previousCycle: deps.previousCycle,
    metrics: deps.metrics,
    failingAgents: deps.agentErrors.failing,
    orphans: orphansOf(deps),
    onOrphans: (orphans) => {
      // At start (the first publication) and whenever the list changes: said, never silent.
      if (orphans.length > 0) {
        deps.log.warn({ orphaned: orphans }, describeOrphans(orphans));
        tellOperator(describeOrphans(orphans));
      } else if (told) deps.log.info('no orphaned positions any more');
      told = orphans.length > 0;
    },
    clockStep: () => clockSteps.last(),
    marketData: freshness.current,
    failed: (err) =>
      deps.log.warn(
        { err: err instanceof Error ? err.message : String(err) },
        'publishing the account failed; the next publication reads it again',
      ),
    ...(venue.positionDrift ? { positionDrift: () => venue.positionDrift!() } : {}),
    ...(venue.requestWeight ? { requestWeight: () => venue.requestWeight!() } : {}),
  });
}

/** The root machine with the application's parts supplied. */
function machineWith(
  deps: TradingPartsDeps,
  publisher: Publisher,
  commands: CommandPump,
  pumpInto: TradingParts['pumpInto'],
  syncControlOf: TradingParts['syncControlOf'],
  riskStates: RiskStateRecorder,
  freshness: MarketFreshness,
) {
  const { config, store, venue, clock, log, events, metrics } = deps;
  const receipts = createJobReceipts();
  // The market of the latest cycle; commands between cycles act on it (or on a fresh read).
  const market = { last: null as MarketView | null };
  const currentMarket = async () => (market.last ??= await deps.feed.next(clock.now()));
  // What a command's reduce-only orders are prepared from: the live account, market and epoch.
  const instruments = new Map(config.instruments.map((i) => [i.symbol, i]));
  const preparation = { venue, control: store.control, clock, instruments, market: currentMarket };
  const { accountChanged, accountChangedSoon } = publisher;
  const published = { accountChanged, accountChangedSoon };
  const completeCommand = createCommandCompletion({ store, clock, events, ...published, log: errorLog(log) });
  const gate = orderGateOf(deps);
  const cycleStarts = new Map<number, number>();
  const fillAudit = createFillAudit({ store, events, clock, log });
  const io = cycleIoOf(deps, publisher, market, cycleStarts, freshness, fillAudit);
  const warn = (what: string) => (err: unknown) => log.warn({ err }, what);
  return provideTradingMachine({
    clock,
    events,
    log,
    links: (system: AnyActorSystem): CycleLinks => ({
      cancel: cancelThroughOms(omsOf(system), receipts),
      syncControl: syncControlOf(rootOf(system)),
      pumpCommands: () => pumpInto(rootOf(system)),
      riskState: () => riskStateOf(system)?.state ?? null,
    }),
    executeJob: createOrderExecution({
      venue,
      store,
      clock,
      mode: config.executionMode,
      events,
      fillAudit,
      gate,
      completeCommand,
      receipts,
      log,
      market: currentMarket,
      ...published,
    }),
    loadMarket: io.loadMarket,
    recordDecision: io.recordDecision,
    prepareDeleverage: createDeleveragePreparation(preparation),
    prepareFlatten: createFlattenPreparation(preparation),
    completeCommand,
    resetRisk: createRiskReset({ venue, store, clock, events, complete: completeCommand }),
    riskStateChanged: riskStates.changed,
    recoverHalt: createHaltRecovery(store.events),
    haltStarted: (halt) => void recordHaltStart(store.events, halt).catch(warn(HALT_START_UNRECORDED)),
    requestKillCancels: (epoch, reason, root) => {
      const who = { actor: `trading:${deps.identity.pid}`, at: new Date(clock.now()).toISOString() };
      void queueKillCancels(store.commands, config.instruments, epoch, reason, who)
        .then(() => pumpInto(root))
        .catch(warn("queueing the kill's cancels failed; the API queues them too, and a restart does"));
    },
    commandSettled: commands.release,
    agentAnalysed: deps.agentErrors.analysed,
    // duration_ms on the monotonic clock: a wall-clock step mid-cycle is not the cycle's duration.
    cycleStarted: (cycle) => cycleStarts.set(cycle, monotonicNow(clock)),
    cycleEnded: (cycle) => {
      const started = cycleStarts.get(cycle) ?? monotonicNow(clock);
      cycleStarts.delete(cycle);
      return Math.max(0, Math.round(monotonicNow(clock) - started));
    },
    rootChanged: (view) => void publisher.heartbeat(view).catch(warn('heartbeat write failed')),
    cycleReported: (record, error) => {
      if (deps.publishing) countCycle(metrics, record);
      if (record?.error) log.error({ cycle: record.cycle, error: record.error }, 'cycle failed');
      if (error !== undefined) log.error({ err: error }, 'cycle crashed');
    },
  });
}

/** The gate every submission passes: its approval token checked against the control record. */
function orderGateOf({ store, clock, config }: TradingPartsDeps) {
  return createOrderGate({ control: store.control, clock, secret: config.hmacSecret, ledger: new UsedTokenLedger() });
}

/** The per-cycle metrics of a system that publishes nothing: a cycle's market ages go nowhere. */
const UNPUBLISHED_METRICS = { observeMarketAges: () => {} };

/** A cycle's outcome and what became of its signals (tcs_trading_signals_total), from its record. */
function countCycle(metrics: TradingMetrics, record: CycleRecord | null): void {
  metrics.cycles.inc({ outcome: record?.outcome ?? 'failed' });
  if (record !== null) metrics.observeSignals(record);
}

/** The cycle's two I/O steps over this process's store, venue and feed. */
function cycleIoOf(
  deps: TradingPartsDeps,
  publisher: Publisher,
  market: { last: MarketView | null },
  cycleStarts: Map<number, number>,
  freshness: MarketFreshness,
  fillAudit: FillAudit,
) {
  const { config } = deps;
  return createCycleIo({
    store: deps.store,
    venue: deps.venue,
    feed: deps.feed,
    clock: deps.clock,
    ...(deps.windowClock ? { windowClock: deps.windowClock } : {}),
    events: deps.events,
    fillAudit,
    circuitBreakerDrawdown: config.circuitBreakerDrawdown,
    maxDrawdown: config.riskLimits.maxDrawdown,
    instruments: config.instruments,
    rememberMarket: (latest) => (market.last = latest),
    marketJudged: freshness.judged,
    accountChanged: publisher.accountChanged,
    cycleStartedAt: (cycle) => cycleStarts.get(cycle),
    saveProtection: (state) => writeDocument(deps.kv, PROTECTION_KEY, state),
    saveOwners: (owners) => writeDocument(deps.kv, OWNERS_KEY, { owners: { ...owners } }),
    // Live only (config.exchange is null otherwise), and only when an exit could rest a stop.
    ...(config.exchange?.stops && protectionEnabled(config.protection)
      ? {
          exchangeStops: {
            settings: config.protection,
            state: () => readDocument(deps.kv, PROTECTION_KEY),
            failed: (err: unknown) =>
              deps.log.warn(
                { err: err instanceof Error ? err.message : String(err) },
                'exchange stops: could not bring the stops on the exchange to the positions; the ones resting stay, tried again next cycle',
              ),
          },
        }
      : {}),
  });
}

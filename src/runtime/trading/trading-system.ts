/**
 * Composes the trading actor system: ownership of the store (trusted control, lease, fenced writes),
 * strategies, the paper venue, the application parts and the root statechart built from them, the
 * safety monitor, and what runs beside the root (store notifications, timers, the machines
 * publisher). Used by the trading process and, with a SimulatedClock, by tests and benchmarks. Only
 * composition: the trading state lives in the root actor, read from its snapshot; nothing here keeps
 * a copy of it, and nothing refers to the root before it exists (parts made earlier report to it
 * through an inbox it is connected to once created).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { createActor } from 'xstate';
import type { Actor, ActorOptions, InspectionEvent, Observer } from 'xstate';
import type { ApprovalSigner } from '../../../machines/risk.machine.js';
import type { RequestGate } from '../../adapters/live-venue/request-gate.js';
import type { SafetyEvent, tradingMachine } from '../../../machines/trading.machine.js';
import { TradingMetrics } from '../../adapters/metrics/trading-metrics.js';
import { highestFeeRate } from './fill-config.js';
import { openPaperVenue } from '../../adapters/paper-venue/index.js';
import { accountGate, openLiveExecution } from './live-execution.js';
import type { ControlRecord, SystemState } from '../../domain/control.js';
import type { StrategyAgent } from '../../domain/strategy-agent.js';
import { eventLine } from '../../domain/event-lines.js';
import { signApproval } from '../../domain/order-token.js';
import type { Clock } from '../../ports/clock.js';
import type { EventStore } from '../../ports/event-store.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import type { Store } from '../../ports/store.js';
import type { TradingEvents } from '../../ports/trading-events.js';
import type { Venue } from '../../ports/venue.js';
import { loadStrategies } from '../../strategies/registry.js';
import { recordAgentSpell } from '../../application/agent-spell-entry.js';
import { createAgentErrors } from '../../application/agent-errors.js';
import { lastRecordedCycle } from '../../application/cycle-numbers.js';
import { renewalOf } from '../../application/lease-keeper.js';
import { createRootInbox } from '../../application/root-inbox.js';
import type { RootInbox } from '../../application/root-inbox.js';
import type { ClockStepWatch } from '../../application/clock-steps.js';
import { createSafetyMonitor } from '../../application/safety-monitor.js';
import type { SafetyMonitor, SafetyMonitorDeps } from '../../application/safety-monitor.js';
import type { StoreMemory } from '../../domain/store-identity.js';
import { startBackground } from './background.js';
import { startMachinesPublisher } from './machines-publisher.js';
import { continueReplay, openMarketFeed, openSyntheticFeed } from './market-feed.js';
import type { HistoryFor } from './market-feed.js';
import { strategyHistory } from './strategy-history.js';
import { settle } from './settle.js';
import { assertProtectedStrategiesRun } from './protection-config.js';
import { readDocument } from '../../ports/documents.js';
import { OWNERS_KEY, PROTECTION_KEY, RISK_STATE_KEY } from '../../domain/runtime-documents.js';
import { startingState } from '../../domain/risk/trading-state.js';
import type { RiskStateRecord } from '../../domain/risk/trading-state.js';
import { riskStateOf } from '../../../machines/system.js';
import type { ProtectionState } from '../../domain/protection.js';
import { takeOwnership } from './take-ownership.js';
import type { Ownership } from './take-ownership.js';
import type { TradingConfig } from './trading-config.js';
import { steadyClock } from './steady-clock.js';
import { createTradingParts } from './trading-parts.js';
import type { TradingParts } from './trading-parts.js';

export interface TradingSystemDeps {
  config: TradingConfig;
  store: Store;
  /** Where event lines go (stdout in the process; memory in tests). Metrics observe them too. */
  lines: TradingEvents & { flush?(): void };
  log: Logger;
  /**
   * "now" for tokens, the venue and event lines; its monotonic reading times every duration, the
   * drawdown window's included (steady-clock.ts). A SimulatedClock (which never steps) in tests.
   */
  clock: Clock;
  /** Timers for the statechart's delays; XState's real timers when omitted. */
  timers?: NonNullable<ActorOptions<typeof tradingMachine>['clock']>;
  /** The market feed (tests, simulations); opened from MARKET_DATA when omitted. Closed by `stop()` either way. */
  feed?: MarketFeed;
  /**
   * Command polling, heartbeat timers and the machines' published states (all real time); off in
   * simulated-clock runs (`tcs simulate`, tests), which drive everything themselves.
   */
  backgroundTimers?: boolean;
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /** What this process remembers of its store (its latch); nothing on a first start. */
  memory?: StoreMemory;
  /** Persists the memory (the latch file); awaited before a record that moved it is acted on. */
  remember?(memory: StoreMemory, record: ControlRecord): Promise<void>;
  /** The lease passed to another process: this one must stop (it can write nothing more anyway). */
  onLeaseLost?(): void;
  /** The client order ids' session part; random per start unless given (a simulation fixes it). */
  sessionId?: string;
  /**
   * False in a simulation run: no API reads what the trading process publishes for it (heartbeat,
   * account, metrics), so none of it is computed or written, and event lines are not counted into
   * metrics. True (publish) unless given.
   */
  publishing?: boolean;
  /** Where the paper account lives (see PaperVenueOptions): the store, unless a simulation says otherwise. */
  venuePersistence?: 'store' | 'process';
  /**
   * The clock a strategy's stderr warnings are limited by (one per agent per minute): `clock` unless
   * given. A simulation gives the wall clock: its simulated minute passes every cycle.
   */
  warningClock?: Clock;
}

export interface TradingSystem {
  actor: Actor<typeof tradingMachine>;
  venue: Venue;
  metrics: TradingMetrics;
  /** The state of the root's control region (the last one entered, after the root stopped). */
  state(): SystemState;
  /** Claims queued commands and hands them to the root actor. */
  pumpCommands(): Promise<void>;
  /** Resolves when no cycle is running and the order manager has no work. */
  settled(timeoutMs?: number): Promise<void>;
  /** Fail-closed checks (store trusted and reachable, control plane alive); ticked by the background timers. */
  safety: SafetyMonitor;
  stop(reason: string): Promise<void>;
}

export async function createTradingSystem(deps: TradingSystemDeps): Promise<TradingSystem> {
  const { log } = deps;
  // The feed first: a live exchange that cannot be reached stops the start before the store is touched.
  // The synthetic market is opened once the lease is held: it continues from the checkpoint in the store.
  // Strategies before the feed: what they declare decides how much history the feed fills.
  let strategies: StrategyAgent[];
  try {
    strategies = await loadStrategies(deps.config.strategies, deps.config.strategyParams);
  } catch (err) {
    // A feed the caller opened is this start's to close, whatever failed first.
    await deps.feed?.close?.().catch(() => {});
    throw err;
  }
  const historyFor = (barMs: number) => strategyHistory(strategies, barMs);
  // One request gate for the exchange account, on the feed's client and the venue's alike.
  const gate = deps.feed ? undefined : accountGate(deps.config, deps.clock);
  const { feed: opened, config } = await openMarketFeed(deps.config, log, deps.feed, historyFor, gate);
  try {
    return await startTradingSystem(deps, opened, config, strategies, gate);
  } catch (err) {
    // A live feed opened here would otherwise keep retrying requests for a system that never started.
    await opened?.close?.().catch(() => {});
    throw err;
  }
}

/** Everything after the market feed is open: ownership, venue, parts, the root actor and its timers. */
async function startTradingSystem(
  deps: TradingSystemDeps,
  opened: MarketFeed | null,
  config: TradingConfig,
  strategies: StrategyAgent[],
  gate: RequestGate | undefined,
) {
  const { log, clock } = deps;
  // Faults the store views and the safety checks notice, kept for the root until it exists.
  const inbox = createRootInbox<SafetyEvent>();
  const monitorLog = monitorLogOf(log);
  const owned = await takeOwnership({
    store: deps.store,
    clock,
    leaseMs: config.safety.leaseMs,
    ...(deps.memory ? { memory: deps.memory } : {}),
    ...(deps.remember ? { remember: deps.remember } : {}),
    log: monitorLog,
    fault: (err) =>
      inbox.send({ type: 'safety.halt', reason: `store_${err.kind}`, message: err.message, at: clock.now() }),
  });
  const { store, kv } = owned;
  const metrics = new TradingMetrics(config.margin);
  const events = linesCounted(deps, metrics);
  const { exchange, ...venueParts } = await openVenue(deps, config, { kv, audit: store.events }, events, gate);
  const feed = await feedAfterLease(deps, opened, config, kv, (barMs) => strategyHistory(strategies, barMs));
  const history = strategyHistory(strategies, feed.barMs ?? 60_000);
  const protectionState = await storedProtection(config, strategies, kv);
  // Who owns each held position, as the last process left it: its strategy's exit still closes it.
  const owners = (await readDocument(kv, OWNERS_KEY))?.owners;
  const riskState = await storedRiskState(kv, owned.initial, clock);
  metrics.observeRiskState(riskState.state);
  const agentErrors = createAgentErrors({
    clock,
    ...(deps.warningClock ? { warningClock: deps.warningClock } : {}),
    events,
    log,
    countInvalid: (agent, n) => metrics.invalidSignals.inc({ agent }, n),
    changed: (change) =>
      void recordAgentSpell(store.events, change).catch((err: unknown) =>
        log.warn(
          { err },
          `strategy ${change.agent.agent}: could not record that its errors ${change.kind === 'persisting' ? 'persist' : 'ended'}`,
        ),
      ),
  });
  const sessionId = deps.sessionId ?? randomBytes(4).toString('hex');
  const previousCycle = await lastRecordedCycle(store);
  const parts = createTradingParts({
    config,
    store,
    kv,
    ...venueParts,
    feed,
    clock,
    log,
    events,
    metrics,
    consumer: `trading:${process.pid}:${sessionId}`,
    previousCycle,
    identity: { pid: process.pid, host: hostname() },
    agents: new Set(strategies.map((s) => s.name)),
    agentErrors,
    publishing: deps.publishing !== false,
  });
  const monitor = safetyMonitorOf({ deps, config, owned, exchange, inbox, clockSteps: parts.clockSteps });
  // Fail closed from the first instant: a store or control plane already lost starts the root halted.
  const fault = await monitor.preflight();
  const actor = createActor(parts.machine, {
    systemId: 'trading',
    input: {
      ...rootInput(config, owned.initial, strategies, sessionId, previousCycle, { protectionState, owners }, riskState),
      history,
      halt: fault ? { ...fault, since: clock.now(), earlier: [] } : null,
    },
    ...(deps.timers ? { clock: deps.timers } : {}),
    ...(deps.inspect ? { inspect: deps.inspect } : {}),
  });
  return run({ deps, config, owned, parts, monitor, inbox, actor, feed, ...venueParts, metrics, events, strategies });
}
interface Running {
  deps: TradingSystemDeps;
  config: TradingConfig;
  owned: Ownership;
  parts: TradingParts;
  monitor: SafetyMonitor;
  inbox: RootInbox<SafetyEvent>;
  actor: Actor<typeof tradingMachine>;
  feed: MarketFeed;
  venue: Venue;
  metrics: TradingMetrics;
  events: TradingEvents;
  strategies: StrategyAgent[];
}

/** Starts the root actor and what runs beside it (store notifications, timers, the machines publisher). */
async function run(r: Running): Promise<TradingSystem> {
  const { deps, config, owned, parts, actor } = r;
  const syncControl = parts.syncControlOf(actor);
  const pumpCommands = () => parts.pumpInto(actor);
  const heartbeat = (stopped = false) =>
    parts.publisher.heartbeat({ ...actor.getSnapshot().context, risk: riskStateOf(actor.system) }, stopped);
  const stopBackground = await startBackground({
    store: owned.store,
    log: deps.log,
    heartbeatMs: config.heartbeatMs,
    timers: deps.backgroundTimers !== false,
    syncControl,
    pumpCommands,
    heartbeat: () => heartbeat(),
    publishMetrics: parts.publisher.metrics,
    safetyTick: async () => {
      const record = await r.monitor.tick();
      if (record) syncControl(record);
    },
    renewLease: renewalOf(owned.keeper, (to) => {
      const message = `the trading lease passed to another process (${to}): this one stops`;
      r.inbox.send({ type: 'safety.halt', reason: 'store_fenced', message, at: deps.clock.now() });
      deps.onLeaseLost?.();
    }),
    leaseMs: config.safety.leaseMs,
  });
  r.events.emit(
    eventLine.sessionStarted(
      config.executionMode,
      r.strategies.map((s) => s.name),
    ),
  );
  actor.start();
  r.inbox.connect(actor);
  const machines =
    deps.backgroundTimers === false
      ? null
      : startMachinesPublisher({ actor, kv: r.owned.kv, clock: deps.clock, log: deps.log });
  syncControl(await owned.store.control.read());
  await pumpCommands();
  await heartbeat();
  await parts.publisher.metrics();
  // Quiet includes the risk engine's last state change being in the store.
  const settled = (timeoutMs = 10_000) => settle(actor, timeoutMs).then(() => parts.riskStates.idle());
  return {
    actor,
    venue: r.venue,
    metrics: r.metrics,
    safety: r.monitor,
    state: () => actor.getSnapshot().context.state,
    pumpCommands,
    settled,
    async stop(reason: string) {
      await stopBackground();
      // Let the current step finish so its decision reaches the event store.
      await settled().catch((err: unknown) => deps.log.warn({ err }, 'stopping while a step is still running'));
      // The risk state's last change reaches the store even when a step did not settle in time.
      await parts.riskStates.idle();
      actor.send({ type: 'session.stop' });
      actor.stop();
      await machines?.stop();
      await heartbeat(true).catch(() => {});
      await parts.publisher.metrics().catch(() => {});
      await r.feed.close?.().catch((err: unknown) => deps.log.warn({ err }, 'market feed did not close'));
      await r.venue.close?.().catch((err: unknown) => deps.log.warn({ err }, 'venue did not close'));
      // Handing the lease back lets a successor start at once instead of waiting for it to run out.
      await owned.keeper.release().catch(() => {});
      r.events.emit(eventLine.sessionStopped(reason));
      deps.lines.flush?.();
    },
  };
}

/**
 * The feed once the lease is held: the synthetic market and a replay continue from the position the
 * last process stored; a live feed, or one the caller gave, is used as it is.
 */
async function feedAfterLease(
  deps: TradingSystemDeps,
  opened: MarketFeed | null,
  config: TradingConfig,
  kv: KeyValueStore,
  historyFor: HistoryFor,
): Promise<MarketFeed> {
  if (opened === null) return openSyntheticFeed(config, kv, deps.log, historyFor);
  if (deps.feed === undefined && config.marketData.startsWith('file:'))
    return continueReplay(config, opened, kv, deps.log, historyFor);
  return opened;
}

/**
 * The trailing stops' best prices and the cooldowns of the last process (none on a fresh store),
 * once PROTECTION_PARAMS is known to name running strategies. A malformed document fails the start,
 * like the replay cursor: forgetting it would loosen every trailing stop.
 */
async function storedProtection(
  config: TradingConfig,
  strategies: readonly StrategyAgent[],
  kv: KeyValueStore,
): Promise<ProtectionState | undefined> {
  assertProtectedStrategiesRun(
    config.protection,
    strategies.map((s) => s.name),
  );
  return (await readDocument(kv, PROTECTION_KEY)) ?? undefined;
}

/**
 * The risk engine's state to start in: a restart keeps `reducing` and the peak it was measured from
 * (a malformed document fails the start, as a fault); a killed store starts `halted`.
 */
async function storedRiskState(kv: KeyValueStore, control: ControlRecord, clock: Clock): Promise<RiskStateRecord> {
  return startingState((await readDocument(kv, RISK_STATE_KEY)) ?? null, control.state === 'killed', clock.now());
}

/**
 * Every line goes to the writer and to the metrics, which count what the lines report; a run that
 * publishes nothing (a simulation) does not count them.
 */
function linesCounted(deps: TradingSystemDeps, metrics: TradingMetrics): TradingEvents {
  if (deps.publishing === false) return deps.lines;
  return { emit: (line) => (metrics.observe(line), deps.lines.emit(line)) };
}

/** The safety monitor's and the ownership's log calls, on the process's logger. */
/** The safety monitor over the owned store, reporting to the root (through its inbox until it exists). */
function safetyMonitorOf(o: {
  deps: TradingSystemDeps;
  config: TradingConfig;
  owned: Ownership;
  exchange: SafetyMonitorDeps['exchange'] | undefined;
  inbox: RootInbox<SafetyEvent>;
  clockSteps: ClockStepWatch;
}) {
  const { clock, log } = o.deps;
  const { keeper } = o.owned;
  return createSafetyMonitor({
    clock,
    clockSteps: o.clockSteps,
    control: o.owned.store.control,
    kv: o.owned.store.kv,
    probeKv: o.owned.kv,
    lease: () => keeper.standing(),
    checkHead: () => o.owned.control.checkHead(),
    clockSkew: () => o.owned.store.clockSkew(),
    evictionRisk: () => o.owned.store.evictionRisk(),
    controlPlaneTimeoutMs: o.config.safety.controlPlaneTimeoutMs,
    storeLossHaltMs: o.config.safety.storeLossHaltMs,
    ...(o.exchange ? { exchange: o.exchange } : {}),
    report: (observation) => o.inbox.send(observation),
    log: monitorLogOf(log),
  });
}

function monitorLogOf(log: Logger) {
  return (level: 'warn' | 'info' | 'error', message: string, details: Record<string, unknown>) =>
    log[level](details, message);
}

/**
 * The live venue on the exchange (EXECUTION_MODE=live, ./live-execution.ts) with whether its exchange
 * answers (the safety monitor judges it), else the paper venue on the fenced key-value store (or in
 * the process, for a simulation run).
 */
async function openVenue(
  deps: TradingSystemDeps,
  config: TradingConfig,
  { kv, audit }: { kv: KeyValueStore; audit: EventStore },
  events: TradingEvents,
  gate: RequestGate | undefined,
): Promise<{ venue: Venue; windowClock: Clock; exchange?: SafetyMonitorDeps['exchange'] }> {
  // What the drawdown window is timed on: a wall-clock step never ends `reducing` (steady-clock.ts).
  const windowClock = steadyClock(deps.clock);
  if (config.executionMode === 'live') {
    return {
      ...(await openLiveExecution(config, {
        clock: deps.clock,
        windowClock,
        log: deps.log,
        events,
        kv,
        audit,
        ...(gate ? { gate } : {}),
      })),
      windowClock,
    };
  }
  const venue = await openPaperVenue({
    kv,
    instruments: config.instruments,
    clock: deps.clock,
    windowClock,
    config: {
      startingCash: config.startingCash,
      margin: config.margin,
      liquidationFee: config.liquidationFee,
      drawdownWindowMs: config.drawdownWindowMs,
      makerFee: config.fills.makerFee,
      takerFee: config.fills.takerFee,
      feesBySymbol: config.fills.feesBySymbol,
      barFills: { volumeShare: config.fills.volumeShare, touchShare: config.fills.touchShare },
      slippageBps: config.fills.slippageBps,
      markPrice: config.fills.markPrice,
    },
    ...(deps.venuePersistence ? { persistence: deps.venuePersistence } : {}),
  });
  return { venue, windowClock };
}

/**
 * The root's input. The signer closes over the secret so it never enters actor context (which the
 * inspector shows); cycle numbers go on from the last one recorded, so a restart repeats none.
 */
function rootInput(
  config: TradingConfig,
  control: ControlRecord,
  strategies: StrategyAgent[],
  sessionId: string,
  previousCycle: number,
  memory: { protectionState?: ProtectionState | undefined; owners?: Readonly<Record<string, string>> | undefined },
  riskState?: RiskStateRecord,
) {
  const sign: ApprovalSigner = (order, epoch, expiresAt) =>
    signApproval(order, { secret: config.hmacSecret, epoch, expiresAt });
  return {
    control,
    firstCycle: previousCycle + 1,
    cycleMs: config.cycleMs,
    strategies,
    instruments: config.instruments,
    arbitration: config.arbitration,
    allocation: {
      riskFraction: config.riskFraction,
      noTradeBand: config.noTradeBand,
      orderStyle: config.orderStyle,
      sessionId,
      protection: config.protection,
      ...(memory.protectionState ? { protectionState: memory.protectionState } : {}),
      ...(memory.owners ? { owners: memory.owners } : {}),
    },
    risk: {
      limits: config.riskLimits,
      tokenTtlMs: config.tokenTtlMs,
      sign,
      marginTable: config.margin,
      feedStaleMs: config.feedStaleMs,
      // The highest fee a paper fill can pay (FEE_MAKER, FEE_TAKER, a manifest's): limits count it.
      feeRate: highestFeeRate(config.fills),
      // SLIPPAGE_BPS: the venue's fills slip; the engine prices orders with it (and the allocator, from here).
      slippageBps: config.fills.slippageBps,
      // MARK_PRICE: the engine values symbols as the venue marks them.
      markPrice: config.fills.markPrice,
      ...(riskState ? { tradingState: riskState } : {}),
      drawdownWindowMs: config.drawdownWindowMs,
    },
  };
}

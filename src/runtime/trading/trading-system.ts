/**
 * Assembles the trading actor system: loads strategies, opens the paper venue on the store, builds
 * the application parts (order gate and execution, command completion, deleverage preparation, cycle
 * I/O, publisher, command pump, control sync), supplies them to the root statechart, and connects it
 * to the store. Used by the trading process and, with a SimulatedClock, by tests and benchmarks.
 * State is read from the root actor's snapshot; nothing here keeps a copy of it.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { createActor, waitFor } from 'xstate';
import type { Actor, ActorOptions, InspectionEvent, Observer, SnapshotFrom } from 'xstate';
import { findOms } from '../../../machines/system.js';
import type { ApprovalSigner } from '../../../machines/risk.machine.js';
import type { tradingMachine } from '../../../machines/trading.machine.js';
import { TradingMetrics } from '../../adapters/metrics/trading-metrics.js';
import { openPaperVenue } from '../../adapters/paper-venue/index.js';
import type { ControlRecord, SystemState } from '../../domain/control.js';
import type { StrategyAgent } from '../../domain/strategy-agent.js';
import { eventLine } from '../../domain/event-lines.js';
import { signApproval } from '../../domain/order-token.js';
import type { Clock } from '../../ports/clock.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import type { Store } from '../../ports/store.js';
import type { TradingEvents } from '../../ports/trading-events.js';
import type { Venue } from '../../ports/venue.js';
import { loadStrategies } from '../../strategies/registry.js';
import { createSafetyMonitor } from '../../application/safety-monitor.js';
import type { SafetyMonitor } from '../../application/safety-monitor.js';
import { fencedKv, withControl } from '../../application/store-views.js';
import { lastKillResetEpoch } from '../../application/kill-reset-proof.js';
import { lastRecordedCycle } from '../../application/cycle-numbers.js';
import { trustedControl } from '../../application/trusted-control.js';
import type { TrustedControl } from '../../application/trusted-control.js';
import { NO_MEMORY } from '../../domain/store-identity.js';
import type { StoreMemory } from '../../domain/store-identity.js';
import { StoreFaultError } from '../../ports/store-errors.js';
import { createLeaseKeeper } from '../../application/lease-keeper.js';
import type { LeaseKeeper } from '../../application/lease-keeper.js';
import { startBackground } from './background.js';
import { holderName, takeTradingLease } from './ownership.js';
import { startMachinesPublisher } from './machines-publisher.js';
import { createTradingParts } from './trading-parts.js';
import { continueReplay, openMarketFeed, openSyntheticFeed } from './market-feed.js';
import type { TradingConfig } from './trading-config.js';

export interface TradingSystemDeps {
  config: TradingConfig;
  store: Store;
  /** Where event lines go (stdout in the process; memory in tests). Metrics observe them too. */
  lines: TradingEvents & { flush?(): void };
  log: Logger;
  /** "now" for tokens, the venue and event lines; a SimulatedClock in tests. */
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
  /** Where the paper account lives (see PaperVenueOptions): the store, unless a simulation says otherwise. */
  venuePersistence?: 'store' | 'process';
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
  const { feed: opened, config } = await openMarketFeed(deps.config, log, deps.feed);
  try {
    return await startTradingSystem(deps, opened, config);
  } catch (err) {
    // A live feed opened here would otherwise keep retrying requests for a system that never started.
    await opened?.close?.().catch(() => {});
    throw err;
  }
}

/** Everything after the market feed is open: ownership, venue, parts, the root actor and its timers. */
async function startTradingSystem(deps: TradingSystemDeps, opened: MarketFeed | null, config: TradingConfig) {
  const { log, clock } = deps;
  const { store, control, initial, keeper, kv, faults } = await takeOwnership(deps);
  const strategies = await loadStrategies(config.strategies, config.strategyParams);
  const venue = await openVenue(deps, config, kv);
  const feed = await feedAfterLease(deps, opened, config, kv);
  const metrics = new TradingMetrics(config.margin);
  // Every line goes to the writer and to the metrics, which count what the lines report.
  const events: TradingEvents = { emit: (line) => (metrics.observe(line), deps.lines.emit(line)) };
  const sessionId = deps.sessionId ?? randomBytes(4).toString('hex');
  const previousCycle = await lastRecordedCycle(store);
  const parts = createTradingParts({
    config,
    store,
    kv,
    venue,
    feed,
    clock,
    log,
    events,
    metrics,
    consumer: `trading:${process.pid}:${sessionId}`,
    previousCycle,
    identity: { pid: process.pid, host: hostname() },
    actor: () => actor,
  });

  const monitor = createSafety(deps, store, venue, events, parts, () => actor, { kv, lease: keeper, control });
  faults.to = monitor;
  // Fail closed from the first instant: a store or control plane already lost starts the root halted.
  const halt = await monitor.preflight();
  const actor = createActor(parts.machine, {
    systemId: 'trading',
    input: { ...rootInput(config, initial, strategies, sessionId, previousCycle), halt: halt?.reason ?? null },
    ...(deps.timers ? { clock: deps.timers } : {}),
    ...(deps.inspect ? { inspect: deps.inspect } : {}),
  });
  const stopBackground = await startBackground({
    store,
    log,
    heartbeatMs: config.heartbeatMs,
    timers: deps.backgroundTimers !== false,
    syncControl: parts.syncControl,
    pumpCommands: parts.commands.pump,
    heartbeat: () => parts.publisher.heartbeat(),
    publishMetrics: parts.publisher.metrics,
    safetyTick: () => monitor.tick(),
    renewLease: leaseRenewal(deps, keeper, monitor),
    leaseMs: config.safety.leaseMs,
  });

  const strategyNames = strategies.map((s) => s.name);
  events.emit(eventLine.sessionStarted(config.executionMode, strategyNames));
  actor.start();
  const machines = deps.backgroundTimers === false ? null : startMachinesPublisher({ actor, kv, clock, log });
  // Started halted: cancel what rests and say so, as any halt does.
  if (halt) actor.send({ type: 'safety.halt', reason: halt.reason });
  parts.syncControl(await control.read());
  await parts.commands.pump();
  await parts.publisher.heartbeat();
  await parts.publisher.metrics();

  const settled = (timeoutMs = 10_000) => settle(actor, timeoutMs);

  return {
    actor,
    venue,
    metrics,
    safety: monitor,
    state: () => actor.getSnapshot().context.state,
    pumpCommands: parts.commands.pump,
    settled,
    async stop(reason: string) {
      await stopBackground();
      // Let the current step finish so its decision reaches the event store.
      await settled().catch((err: unknown) => log.warn({ err }, 'stopping while a step is still running'));
      actor.send({ type: 'session.stop' });
      actor.stop();
      await machines?.stop();
      await parts.publisher.heartbeat(true).catch(() => {});
      await parts.publisher.metrics().catch(() => {});
      await feed.close?.().catch((err: unknown) => log.warn({ err }, 'market feed did not close'));
      // Handing the lease back lets a successor start at once instead of waiting for it to run out.
      await keeper.release().catch(() => {});
      events.emit(eventLine.sessionStopped(reason));
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
): Promise<MarketFeed> {
  if (opened === null) return openSyntheticFeed(config, kv, deps.log);
  if (deps.feed === undefined && config.marketData.startsWith('file:'))
    return continueReplay(config, opened, kv, deps.log);
  return opened;
}

/** The paper venue on the fenced key-value store (or in the process, for a simulation run). */
function openVenue(deps: TradingSystemDeps, config: TradingConfig, kv: KeyValueStore): Promise<Venue> {
  return openPaperVenue({
    kv,
    instruments: config.instruments,
    clock: deps.clock,
    config: { startingCash: config.startingCash, margin: config.margin },
    ...(deps.venuePersistence ? { persistence: deps.venuePersistence } : {}),
  });
}

/**
 * Renews the lease (a renewal the store did not confirm is not one: the safety monitor halts before
 * the lease could run out, see lease-keeper.ts); when another process held it since, halts at once
 * and lets the process stop, once.
 */
function leaseRenewal(deps: TradingSystemDeps, keeper: LeaseKeeper, monitor: SafetyMonitor): () => Promise<void> {
  let reported = false;
  return async () => {
    await keeper.renew();
    const standing = keeper.standing();
    if (standing.kind !== 'lost' || reported) return;
    reported = true;
    monitor.fault(
      new StoreFaultError('fenced', `the trading lease passed to another process (${standing.to}): this one stops`),
    );
    deps.onLeaseLost?.();
  };
}

/**
 * The trusted view of the store (judged against what this process remembers), the first record read
 * through it — a store this process does not trust stops here, before the lease or the account are
 * touched — then the trading lease and the key-value store fenced with its token.
 */
async function takeOwnership(deps: TradingSystemDeps) {
  const faults: { to: SafetyMonitor | null } = { to: null };
  const events = deps.store.events;
  const control = trustedControl(deps.store.control, {
    memory: deps.memory ?? NO_MEMORY,
    events,
    ...(deps.remember ? { remember: deps.remember } : {}),
    lastResetEpoch: () => lastKillResetEpoch(events),
    distrusted: (err) => faults.to?.fault(err),
  });
  const initial = await control.read();
  const grantedAt = deps.clock.now();
  const grant = await takeTradingLease(deps.store.lease, holderName(), deps.config.safety.leaseMs);
  const keeper = createLeaseKeeper({
    lease: deps.store.lease,
    grant,
    grantedAt,
    ttlMs: deps.config.safety.leaseMs,
    clock: deps.clock,
    log: (level, message, details) => deps.log[level](details, message),
  });
  const store = withControl(deps.store, control);
  return {
    store,
    control,
    initial,
    keeper,
    kv: fencedKv(
      deps.store.kv,
      () => keeper.fence(),
      (err) => faults.to?.fault(err),
    ),
    faults,
  };
}

/**
 * The safety monitor wired to this process: a halt goes to the root actor (which cancels open orders
 * through the order manager); ending one cancels once more at the venue (the first try may have
 * failed with the store) and records the halt in the audit trail, which it could not reach before.
 */
function createSafety(
  deps: TradingSystemDeps,
  store: Store,
  venue: Venue,
  events: TradingEvents,
  parts: ReturnType<typeof createTradingParts>,
  actor: () => Actor<typeof tradingMachine>,
  own: { kv: KeyValueStore; lease: LeaseKeeper; control: TrustedControl },
): SafetyMonitor {
  const { config, clock, log } = deps;
  return createSafetyMonitor({
    clock,
    control: store.control,
    kv: store.kv,
    probeKv: own.kv,
    lease: () => own.lease.standing(),
    checkHead: () => own.control.checkHead(),
    controlPlaneTimeoutMs: config.safety.controlPlaneTimeoutMs,
    storeLossHaltMs: config.safety.storeLossHaltMs,
    syncControl: parts.syncControl,
    halt: (halt) => actor().send({ type: 'safety.halt', reason: halt.reason }),
    clear: () => actor().send({ type: 'safety.clear' }),
    async recover(halt, until) {
      const cancelled = await venue.cancelAll();
      events.emit(eventLine.ordersCancelled(`halt ended: ${halt.reason}`, undefined, cancelled));
      // One entry per halt, the replaced ones first, each ending when the next began.
      const halts = [...(halt.earlier ?? []), halt];
      for (const [i, h] of halts.entries()) {
        const last = i === halts.length - 1;
        const end = last ? until : halts[i + 1]!.since;
        await store.events.append({
          kind: 'trading_halt',
          at: new Date(end).toISOString(),
          body: {
            reason: h.reason,
            message: h.message,
            since: new Date(h.since).toISOString(),
            until: new Date(end).toISOString(),
            ...(last
              ? { cancelled_at_end: cancelled.map((o) => ({ client_order_id: o.clientOrderId, symbol: o.symbol })) }
              : { replaced_by: halts[i + 1]!.reason }),
          },
        });
      }
      await parts.publisher.accountChanged();
    },
    log: (level, message, details) => log[level](details, message),
  });
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
    },
    risk: {
      limits: config.riskLimits,
      tokenTtlMs: config.tokenTtlMs,
      sign,
      marginTable: config.margin,
      feedStaleMs: config.feedStaleMs,
    },
  };
}

/** Resolves when no cycle runs, the order manager is idle and no deleverage actor is working. */
async function settle(actor: Actor<typeof tradingMachine>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  // Each waitFor arms a timer and a subscription; a simulation settles every cycle, and the order
  // manager is idle in most of them, so what already holds is not waited for.
  const cycleDone = (s: SnapshotFrom<typeof actor>) => !s.matches({ control: { running: 'cycling' } });
  if (!cycleDone(actor.getSnapshot())) await waitFor(actor, cycleDone, { timeout: timeoutMs });
  const oms = findOms(actor.system);
  const omsIdle = (s: SnapshotFrom<NonNullable<typeof oms>>) => s.matches({ work: 'idle' });
  if (oms && !omsIdle(oms.getSnapshot())) await waitFor(oms, omsIdle, { timeout: timeoutMs });
  // Deleverage actors finish on their own turns after the order manager answers them.
  while (deleveraging(actor)) {
    if (Date.now() > deadline) throw new Error(`a deleverage was still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function deleveraging(actor: Actor<typeof tradingMachine>): boolean {
  return Object.entries(actor.getSnapshot().children).some(
    ([id, child]) => id.startsWith('deleverage:') && child?.getSnapshot().status === 'active',
  );
}

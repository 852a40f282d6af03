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
import type { Actor, ActorOptions, InspectionEvent, Observer } from 'xstate';
import { findOms } from '../../../machines/system.js';
import type { ApprovalSigner } from '../../../machines/risk.machine.js';
import type { tradingMachine } from '../../../machines/trading.machine.js';
import { createSyntheticFeed } from '../../adapters/market-data/index.js';
import { TradingMetrics } from '../../adapters/metrics/trading-metrics.js';
import { openPaperVenue } from '../../adapters/paper-venue/index.js';
import type { ControlRecord, SystemState } from '../../domain/control.js';
import type { StrategyAgent } from '../../domain/strategy-agent.js';
import { eventLine } from '../../domain/event-lines.js';
import { signApproval } from '../../domain/order-token.js';
import type { Clock } from '../../ports/clock.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import type { Store } from '../../ports/store.js';
import type { TradingEvents } from '../../ports/trading-events.js';
import type { Venue } from '../../ports/venue.js';
import { loadStrategies } from '../../strategies/registry.js';
import { startBackground } from './background.js';
import { createTradingParts } from './trading-parts.js';
import { assertNoOtherTradingProcess } from './single-instance.js';
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
  feed?: MarketFeed;
  /** Command polling and heartbeat timers (real time); off in simulated-clock tests. */
  backgroundTimers?: boolean;
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
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
  stop(reason: string): Promise<void>;
}

export async function createTradingSystem(deps: TradingSystemDeps): Promise<TradingSystem> {
  const { config, store, log, clock } = deps;
  const strategies = await loadStrategies(config.strategies, config.strategyParams);
  const venue = await openPaperVenue({
    kv: store.kv,
    instruments: config.instruments,
    clock,
    config: { startingCash: config.startingCash, margin: config.margin },
  });
  // Each cycle advances the synthetic market by one market minute, whatever CYCLE_SECONDS is.
  const feed =
    deps.feed ?? createSyntheticFeed({ instruments: config.instruments, seed: config.marketSeed, stepMs: 60_000 });
  const metrics = new TradingMetrics(config.margin);
  // Every line goes to the writer and to the metrics, which count what the lines report.
  const events: TradingEvents = { emit: (line) => (metrics.observe(line), deps.lines.emit(line)) };
  const sessionId = randomBytes(4).toString('hex');

  await assertNoOtherTradingProcess(store.kv, clock);
  const initial = await store.control.read();
  const parts = createTradingParts({
    config,
    store,
    venue,
    feed,
    clock,
    log,
    events,
    metrics,
    consumer: `trading:${process.pid}:${sessionId}`,
    identity: { pid: process.pid, host: hostname() },
    actor: () => actor,
  });

  const actor = createActor(parts.machine, {
    systemId: 'trading',
    input: rootInput(config, initial, strategies, sessionId),
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
  });

  events.emit(
    eventLine.sessionStarted(
      config.executionMode,
      strategies.map((s) => s.name),
    ),
  );
  actor.start();
  parts.syncControl(await store.control.read());
  await parts.commands.pump();
  await parts.publisher.heartbeat();
  await parts.publisher.metrics();

  const settled = (timeoutMs = 10_000) => settle(actor, timeoutMs);

  return {
    actor,
    venue,
    metrics,
    state: () => actor.getSnapshot().context.state,
    pumpCommands: parts.commands.pump,
    settled,
    async stop(reason) {
      await stopBackground();
      // Let the current step finish so its decision reaches the event store.
      await settled().catch((err: unknown) => log.warn({ err }, 'stopping while a step is still running'));
      actor.send({ type: 'session.stop' });
      actor.stop();
      await parts.publisher.heartbeat(true).catch(() => {});
      await parts.publisher.metrics().catch(() => {});
      events.emit(eventLine.sessionStopped(reason));
      deps.lines.flush?.();
    },
  };
}

/** The root's input. The signer closes over the secret so it never enters actor context (which the inspector shows). */
function rootInput(config: TradingConfig, control: ControlRecord, strategies: StrategyAgent[], sessionId: string) {
  const sign: ApprovalSigner = (order, epoch, expiresAt) =>
    signApproval(order, { secret: config.hmacSecret, epoch, expiresAt });
  return {
    control,
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
    risk: { limits: config.riskLimits, tokenTtlMs: config.tokenTtlMs, sign, marginTable: config.margin },
  };
}

/** Resolves when no cycle runs, the order manager is idle and no deleverage actor is working. */
async function settle(actor: Actor<typeof tradingMachine>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await waitFor(actor, (s) => !s.matches({ control: { running: 'cycling' } }), { timeout: timeoutMs });
  const oms = findOms(actor.system);
  if (oms) await waitFor(oms, (s) => s.matches({ work: 'idle' }), { timeout: timeoutMs });
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

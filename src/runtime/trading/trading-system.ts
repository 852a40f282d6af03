/**
 * Assembles the trading actor system: loads strategies, opens the paper venue on the store, builds
 * the root statechart with the I/O implementations supplied through .provide(), and connects it to
 * the store — control changes arrive by notification within milliseconds and are sent to the root
 * actor as the same control events the API applied; queued commands are claimed and handed to the
 * order manager. Used by the trading process and, with a SimulatedClock, by tests and benchmarks.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Actor, ActorOptions, InspectionEvent, Observer } from 'xstate';
import { cycleMachine } from '../../../machines/cycle.machine.js';
import type { CycleRecord } from '../../../machines/cycle.machine.js';
import { orderManagerMachine } from '../../../machines/order-manager.machine.js';
import { controlEventFor, tradingMachine } from '../../../machines/trading.machine.js';
import type { ApprovalSigner } from '../../../machines/risk.machine.js';
import { createSyntheticFeed } from '../../adapters/market-data/index.js';
import { openPaperVenue } from '../../adapters/paper-venue/index.js';
import type { ControlRecord, SystemState } from '../../domain/control.js';
import type { MarketView } from '../../domain/market.js';
import { signApproval } from '../../domain/order-token.js';
import type { AccountSnapshot } from '../../domain/portfolio.js';
import { HEARTBEAT_KEY, PORTFOLIO_KEY, TRADING_METRICS_KEY } from '../../domain/runtime-documents.js';
import type { TradingHeartbeat } from '../../domain/runtime-documents.js';
import { UsedTokenLedger } from '../../domain/used-token-ledger.js';
import type { Clock } from '../../ports/clock.js';
import type { MarketFeed } from '../../ports/market-feed.js';
import type { Store } from '../../ports/store.js';
import type { Venue } from '../../ports/venue.js';
import { loadStrategies } from '../../strategies/registry.js';
import { createCycleIo } from './cycle-io.js';
import type { EventLines } from './event-lines.js';
import { createJobExecutor } from './order-executor.js';
import { assertNoOtherTradingProcess } from './single-instance.js';
import type { TradingConfig } from './trading-config.js';
import { TradingMetrics } from './trading-metrics.js';

export interface TradingSystemDeps {
  config: TradingConfig;
  store: Store;
  lines: EventLines;
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
  /** The state of the root's control region. */
  state(): SystemState;
  /** Claims queued commands and hands them to the order manager. */
  pumpCommands(): Promise<void>;
  /** Resolves when no cycle is running and the order manager has no work. */
  settled(timeoutMs?: number): Promise<void>;
  stop(reason: string): Promise<void>;
}

export async function createTradingSystem(deps: TradingSystemDeps): Promise<TradingSystem> {
  const { config, store, lines, log, clock } = deps;
  const strategies = await loadStrategies(config.strategies, config.strategyParams);
  const instruments = new Map(config.instruments.map((i) => [i.symbol, i]));
  const venue = await openPaperVenue({
    kv: store.kv,
    instruments: config.instruments,
    clock,
    config: { startingCash: config.startingCash },
  });
  // Each cycle advances the synthetic market by one market minute, whatever CYCLE_SECONDS is, so a
  // fast demo run (CYCLE_SECONDS=1) still sees minute-sized moves.
  const feed =
    deps.feed ?? createSyntheticFeed({ instruments: config.instruments, seed: config.marketSeed, stepMs: 60_000 });
  const metrics = new TradingMetrics();
  const ledger = new UsedTokenLedger();
  const sessionId = randomBytes(4).toString('hex');
  const consumer = `trading:${process.pid}:${sessionId}`;
  const iso = () => new Date(clock.now()).toISOString();

  let lastMarket: MarketView | null = null;
  let lastCycle = 0;
  let lastCycleAt: number | null = null;
  let syncedEpoch = -1;
  let announcedState: SystemState = 'running';
  const cycleStarts = new Map<number, number>();
  const inFlightCommands = new Set<string>();

  await assertNoOtherTradingProcess(store.kv, clock);
  const initial = await store.control.read();
  syncedEpoch = initial.epoch;

  const publish = async (account: AccountSnapshot) => {
    metrics.observeAccount(account);
    await store.kv.set(PORTFOLIO_KEY, account);
    await heartbeat();
  };
  // Rendering every metric (process metrics included) costs more than the rest of a cycle's
  // writes, and a scrape only needs it every few seconds: published with the heartbeat timer.
  const publishMetrics = async () => store.kv.set(TRADING_METRICS_KEY, { ts: clock.now(), text: await metrics.text() });
  const currentMarket = async () => (lastMarket ??= await feed.next(clock.now()));
  const executor = createJobExecutor({
    venue,
    store,
    clock,
    secret: config.hmacSecret,
    mode: config.executionMode,
    instruments,
    riskLimits: config.riskLimits,
    tokenTtlMs: config.tokenTtlMs,
    ledger,
    lines,
    metrics,
    log,
    market: currentMarket,
    accountChanged: async () => publish(await venue.account()),
    orderManagerMode: () => {
      const oms = actor.system.get('oms');
      const snapshot = oms?.getSnapshot() as { matches(value: unknown): boolean } | undefined;
      if (!snapshot) return 'stopped';
      return snapshot.matches({ mode: 'accepting' })
        ? 'accepting'
        : snapshot.matches({ mode: 'stopped' })
          ? 'stopped'
          : 'halted';
    },
  });

  // Sends the root the event that brings it to `record`'s state; stale or repeated records are ignored.
  const syncControl = (record: ControlRecord) => {
    if (record.epoch <= syncedEpoch) return;
    syncedEpoch = record.epoch;
    actor.send(controlEventFor(record));
  };

  const pumpCommands = async () => {
    const claimed = await store.commands.claim(consumer, { max: 50, leaseMs: 30_000, now: clock.now() });
    for (const command of claimed) {
      if (inFlightCommands.has(command.id)) continue;
      inFlightCommands.add(command.id);
      actor.system.get('oms')?.send({ type: 'oms.command', command });
    }
  };

  const io = createCycleIo({
    store,
    venue,
    feed,
    clock,
    lines,
    metrics,
    circuitBreakerDrawdown: config.circuitBreakerDrawdown,
    instruments: config.instruments,
    syncControl,
    pumpCommands,
    rememberMarket: (market) => (lastMarket = market),
    publish,
    cycleStartedAt: (cycle) => cycleStarts.get(cycle),
  });

  // The signer closes over the secret so it never enters actor context (which the inspector shows).
  const sign: ApprovalSigner = (order, epoch, expiresAt) =>
    signApproval(order, { secret: config.hmacSecret, epoch, expiresAt });

  const machine = tradingMachine.provide({
    actors: {
      oms: orderManagerMachine.provide({
        actors: {
          executeJob: fromPromise(async ({ input, signal }) => {
            try {
              return await executor(input.job, signal);
            } catch (err) {
              // The order manager turns this into refusals / a lease retry; it must still be seen.
              log.error(
                { err, job: input.job.kind === 'command' ? input.job.command.id : input.job.kind },
                'order manager job failed',
              );
              throw err;
            } finally {
              if (input.job.kind === 'command') inFlightCommands.delete(input.job.command.id);
            }
          }),
        },
      }),
      cycle: cycleMachine.provide({
        actors: {
          loadMarket: fromPromise(({ input }) => io.loadMarket(input)),
          recordDecision: fromPromise(({ input }) => io.recordDecision(input)),
        },
        actions: {
          announceSignals: (_, { signals }) => {
            for (const s of signals) {
              metrics.signals.inc({ agent: s.agent });
              lines.signalGenerated(s.agent, s.symbol, s.direction, s.confidence);
            }
          },
          announceVerdicts: (_, { verdicts }) => {
            for (const v of verdicts) {
              if (v.approval) {
                metrics.approvals.inc();
                lines.riskApproved(v.order.symbol, v.order.qty, v.approval.token);
                continue;
              }
              for (const c of v.decision.checks.filter((check) => !check.passed)) {
                metrics.denials.inc({ guard: c.guard, code: c.code });
                lines.other('risk_rejected', {
                  symbol: v.order.symbol,
                  guard: c.guard,
                  code: c.code,
                  value: c.value,
                  limit: c.limit,
                });
              }
            }
          },
        },
      }),
    },
    actions: {
      announceCycleStart: (_, { cycle }) => {
        cycleStarts.set(cycle, clock.now());
        lines.cycleStart(cycle, iso());
      },
      announceCycleEnd: (_, { cycle }) => {
        const started = cycleStarts.get(cycle) ?? clock.now();
        cycleStarts.delete(cycle);
        const duration = Math.max(0, Math.round(clock.now() - started));
        lastCycle = cycle;
        lastCycleAt = clock.now();
        metrics.cycleDuration.observe(duration / 1000);
        lines.cycleEnd(cycle, duration);
      },
      announceState: (_, { state, epoch }) => {
        announcedState = state;
        metrics.observeState(state);
        lines.other('control_changed', { state, epoch });
        void heartbeat().catch((err: unknown) => log.warn({ err }, 'heartbeat write failed'));
      },
      reportCycle: (_, { record }: { record: CycleRecord }) => {
        metrics.cycles.inc({ outcome: record.outcome });
        if (record.error) log.error({ cycle: record.cycle, error: record.error }, 'cycle failed');
      },
      reportCycleError: (_, { cycle, error }) => {
        metrics.cycles.inc({ outcome: 'failed' });
        log.error({ cycle, err: error }, 'cycle crashed');
      },
    },
  });

  const actor = createActor(machine, {
    systemId: 'trading',
    input: {
      control: initial,
      cycleMs: config.cycleMs,
      strategies,
      instruments: config.instruments,
      arbitration: config.arbitration,
      allocation: { riskFraction: config.riskFraction, orderStyle: config.orderStyle, sessionId },
      risk: { limits: config.riskLimits, tokenTtlMs: config.tokenTtlMs, sign },
    },
    ...(deps.timers ? { clock: deps.timers } : {}),
    ...(deps.inspect ? { inspect: deps.inspect } : {}),
  });

  // The control region's state; after `session.stop` the last state it announced.
  const state = (): SystemState => {
    const snapshot = actor.getSnapshot();
    if (snapshot.matches({ control: 'killed' })) return 'killed';
    if (snapshot.matches({ control: 'paused' })) return 'paused';
    if (snapshot.matches({ control: 'running' })) return 'running';
    return announcedState;
  };

  async function heartbeat(stopped = false) {
    const doc: TradingHeartbeat = {
      pid: process.pid,
      ts: clock.now(),
      state: state(),
      epoch: actor.getSnapshot().context.epoch,
      lastCycle,
      lastCycleAt,
      mode: config.executionMode,
      host: hostname(),
      stopped,
    };
    await store.kv.set(HEARTBEAT_KEY, doc);
  }

  // Notifications can be missed (a pub/sub message during a reconnect, or one sent between the
  // first read and the subscription); re-reading on every heartbeat bounds that to HEARTBEAT_MS.
  const resync = async () => syncControl(await store.control.read());

  const unsubscribers = [
    await store.control.subscribe((record) => syncControl(record)),
    await store.commands.subscribe(
      () => void pumpCommands().catch((err: unknown) => log.error({ err }, 'claiming commands failed')),
    ),
  ];
  const timers: NodeJS.Timeout[] = [];
  if (deps.backgroundTimers !== false) {
    // Not unref'd: while paused or killed no other timer runs, and this keeps the process serving.
    timers.push(
      setInterval(() => {
        resync()
          .then(() => heartbeat())
          .then(publishMetrics)
          .catch((err: unknown) => log.warn({ err }, 'heartbeat write failed'));
      }, config.heartbeatMs),
    );
    // Re-claims commands whose lease expired (a crash mid-command) and any missed notification.
    timers.push(
      setInterval(
        () => void pumpCommands().catch((err: unknown) => log.warn({ err }, 'claiming commands failed')),
        2_000,
      ).unref(),
    );
  }

  lines.sessionStarted(
    config.executionMode,
    strategies.map((s) => s.name),
  );
  actor.start();
  await resync();
  await pumpCommands();
  await heartbeat();
  await publishMetrics();

  const settled = async (timeoutMs = 10_000) => {
    await waitFor(actor, (s) => !s.matches({ control: { running: 'cycling' } }), { timeout: timeoutMs });
    const oms = actor.system.get('oms');
    if (oms)
      await waitFor(oms, (s: { matches(v: unknown): boolean }) => s.matches({ work: 'idle' }), { timeout: timeoutMs });
  };

  return {
    actor,
    venue,
    metrics,
    state,
    pumpCommands,
    settled,
    async stop(reason) {
      for (const t of timers) clearInterval(t);
      for (const unsubscribe of unsubscribers) await unsubscribe();
      // Let the current step finish so its decision reaches the event store.
      await settled().catch((err: unknown) => log.warn({ err }, 'stopping while a step is still running'));
      actor.send({ type: 'session.stop' });
      actor.stop();
      await heartbeat(true).catch(() => {});
      await publishMetrics().catch(() => {});
      lines.other('session_stopped', { reason });
      lines.flush();
    },
  };
}

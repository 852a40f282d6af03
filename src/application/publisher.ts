/**
 * What the trading process publishes for the API in the key-value store: the account (portfolio
 * document and account gauges), the heartbeat (state, epoch, last cycle, halt: the root actor's
 * context, given by whoever saw it change — never copies kept on the side) and the metrics text. Rendering every metric costs
 * more than the rest of a cycle's writes and a scrape needs it only every few seconds, so the text
 * is published with the heartbeat timer, not per cycle.
 */
import type { ClockStep } from './clock-steps.js';
import { latestWins } from './latest-wins.js';
import type { MarketFreshness } from './market-freshness.js';
import type { SystemState } from '../domain/control.js';
import type { RiskStateRecord } from '../domain/risk/trading-state.js';
import type { FailingAgent } from '../domain/failing-agents.js';
import type { AccountSnapshot } from '../domain/portfolio.js';
import type { OrphanedPosition } from '../domain/orphaned-positions.js';
import type { RequestWeight } from '../domain/request-weight.js';
import { HEARTBEAT_KEY, PORTFOLIO_KEY, TRADING_METRICS_KEY } from '../domain/runtime-documents.js';
import type { TradingHeartbeat } from '../domain/runtime-documents.js';
import type { Clock } from '../ports/clock.js';
import { writeDocument } from '../ports/documents.js';
import type { KeyValueStore } from '../ports/key-value-store.js';
import type { Venue } from '../ports/venue.js';

/** The root actor's context as far as a heartbeat reports it (machines/trading.machine.ts). */
export interface RootView {
  state: SystemState;
  epoch: number;
  lastCycle: { cycle: number; now: number | null } | null;
  halt: { reason: string; message: string; since: number } | null;
  /** The risk engine's state (its actor's context, machines/system.ts riskStateOf); absent: not known. */
  risk?: Pick<RiskStateRecord, 'state' | 'since' | 'reason'> | null;
}

export interface PublisherDeps {
  kv: KeyValueStore;
  venue: Venue;
  clock: Clock;
  mode: string;
  /** How often the heartbeat is written (HEARTBEAT_MS); published in it so /health can judge staleness. */
  heartbeatMs: number;
  /** Who this process is, for the single-instance check and the operator. */
  identity: { pid: number; host: string };
  /** The last cycle recorded before this process started, reported until a cycle of its own ends. */
  previousCycle: number;
  metrics: {
    observeAccount(account: AccountSnapshot): void;
    /** The request weight now, set just before each rendering (absent: not reported). */
    observeRequestWeight?(weight: RequestWeight): void;
    text(): Promise<string>;
  };
  /** The strategy agents failing now (application/agent-errors.ts); none when not given. */
  failingAgents?: () => FailingAgent[];
  /** The positions of `account` no configured strategy closes (absent: none reported). */
  orphans?: (account: AccountSnapshot) => Promise<OrphanedPosition[]>;
  /** Told the orphaned positions when their list changes (the first publication included). */
  onOrphans?: (orphans: readonly OrphanedPosition[]) => void;
  /** The last wall-clock step seen (src/application/clock-steps.ts); none when not given. */
  clockStep?: () => ClockStep | null;
  /** The last cycle's market data judged against FEED_STALE_MS (market-freshness.ts); absent: not reported. */
  marketData?: MarketFreshness['current'];
  /** Told when a publication nobody waited for failed (accountChangedSoon); the next one tries again. */
  failed?: (err: unknown) => void;
  /** The live venue's position drift now (absent for a venue that has none to report). */
  positionDrift?: () => ReadonlyArray<{ symbol: string; expected: number; actual: number }>;
  /** The live venue's exchange request weight now (absent for a venue without a budget). */
  requestWeight?: () => RequestWeight;
}

export interface Publisher {
  /**
   * Publishes the venue's current account: a read that starts after this call (never two at once, so
   * an older account is never written over a newer one; ./latest-wins.ts).
   */
  accountChanged(): Promise<void>;
  /** The same, not waited for (a command's submissions: its next round need not wait for a read). */
  accountChangedSoon(): void;
  heartbeat(root: RootView, stopped?: boolean): Promise<void>;
  metrics(): Promise<void>;
}

export function createPublisher(deps: PublisherDeps): Publisher {
  // Computed with each published account, carried by every heartbeat until the next.
  let orphans: OrphanedPosition[] = [];
  let told: string | null = null;
  const heartbeat = async (root: RootView, stopped = false) => {
    const doc: TradingHeartbeat = {
      ...deps.identity,
      state: root.state,
      epoch: root.epoch,
      lastCycle: root.lastCycle?.cycle ?? deps.previousCycle,
      lastCycleAt: root.lastCycle?.now ?? null,
      halt: root.halt?.reason ?? null,
      // Monitoring says why, not only that (/health names the halt and its cause).
      ...(root.halt ? { haltMessage: root.halt.message.slice(0, 1000), haltSince: root.halt.since } : {}),
      ...(root.risk
        ? { risk: { state: root.risk.state, since: root.risk.since, reason: root.risk.reason.slice(0, 1000) } }
        : {}),
      ts: deps.clock.now(),
      intervalMs: deps.heartbeatMs,
      mode: deps.mode,
      stopped,
      // A process that stopped runs no strategy: none of them is failing any more.
      failingAgents: stopped ? [] : (deps.failingAgents?.() ?? []),
      ...(deps.orphans ? { orphanedPositions: orphans.slice(0, 100).map((o) => ({ ...o })) } : {}),
      ...clockStepOf(deps),
      ...marketDataOf(deps, stopped),
      ...(deps.positionDrift
        ? {
            positionDrift: deps
              .positionDrift()
              .slice(0, 100)
              .map((d) => ({ ...d })),
          }
        : {}),
      ...(deps.requestWeight ? { requestWeight: deps.requestWeight() } : {}),
    };
    await writeDocument(deps.kv, HEARTBEAT_KEY, doc);
  };
  const account = latestWins(
    async () => {
      const account = await deps.venue.account();
      deps.metrics.observeAccount(account);
      await writeDocument(deps.kv, PORTFOLIO_KEY, account);
      if (deps.orphans) {
        orphans = await deps.orphans(account);
        const key = JSON.stringify(orphans);
        if (key !== told) {
          told = key;
          deps.onOrphans?.(orphans);
        }
      }
    },
    (err) => deps.failed?.(err),
  );
  return {
    accountChanged: account.now,
    accountChangedSoon: account.soon,
    heartbeat,
    async metrics() {
      if (deps.requestWeight) deps.metrics.observeRequestWeight?.(deps.requestWeight());
      await writeDocument(deps.kv, TRADING_METRICS_KEY, { ts: deps.clock.now(), text: await deps.metrics.text() });
    },
  };
}

/**
 * The heartbeat's `marketData` field: the stale spell now, the symbols cut to the document's bound.
 * A process that stopped judges no more data: nothing stale.
 */
function marketDataOf(deps: PublisherDeps, stopped: boolean): Pick<TradingHeartbeat, 'marketData'> {
  if (!deps.marketData) return {};
  const { limitMs, spell } = deps.marketData();
  const stale = stopped || !spell ? [] : spell.stale.slice(0, 100).map((s) => ({ symbol: s.symbol, ageMs: s.ageMs }));
  return { marketData: { limitMs, since: stale.length > 0 ? spell!.since : null, stale } };
}

/** The heartbeat's `clockStep` field: the last step seen, absent before any. */
function clockStepOf(deps: PublisherDeps): { clockStep?: ClockStep } {
  const step = deps.clockStep?.() ?? null;
  return step ? { clockStep: { stepMs: step.stepMs, at: step.at } } : {};
}

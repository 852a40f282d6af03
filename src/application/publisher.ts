/**
 * What the trading process publishes for the API in the key-value store: the account (portfolio
 * document and account gauges), the heartbeat (state, epoch, last cycle; read from the root actor's
 * snapshot, never from copies kept on the side) and the metrics text. Rendering every metric costs
 * more than the rest of a cycle's writes and a scrape needs it only every few seconds, so the text
 * is published with the heartbeat timer, not per cycle.
 */
import type { SystemState } from '../domain/control.js';
import type { AccountSnapshot } from '../domain/portfolio.js';
import { HEARTBEAT_KEY, PORTFOLIO_KEY, TRADING_METRICS_KEY } from '../domain/runtime-documents.js';
import type { TradingHeartbeat } from '../domain/runtime-documents.js';
import type { Clock } from '../ports/clock.js';
import { writeDocument } from '../ports/documents.js';
import type { KeyValueStore } from '../ports/key-value-store.js';
import type { Venue } from '../ports/venue.js';

/** The root actor's view that a heartbeat reports. */
export interface RootView {
  state: SystemState;
  epoch: number;
  lastCycle: number;
  lastCycleAt: number | null;
  /** Why trading is halted for safety, null when it is not. */
  halt: string | null;
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
  root(): RootView;
  metrics: { observeAccount(account: AccountSnapshot): void; text(): Promise<string> };
}

export interface Publisher {
  /** Publishes the venue's current account, then a heartbeat. */
  accountChanged(): Promise<void>;
  heartbeat(stopped?: boolean): Promise<void>;
  metrics(): Promise<void>;
}

export function createPublisher(deps: PublisherDeps): Publisher {
  const heartbeat = async (stopped = false) => {
    const doc: TradingHeartbeat = {
      ...deps.identity,
      ...deps.root(),
      ts: deps.clock.now(),
      intervalMs: deps.heartbeatMs,
      mode: deps.mode,
      stopped,
    };
    await writeDocument(deps.kv, HEARTBEAT_KEY, doc);
  };
  return {
    async accountChanged() {
      const account = await deps.venue.account();
      deps.metrics.observeAccount(account);
      await writeDocument(deps.kv, PORTFOLIO_KEY, account);
      await heartbeat();
    },
    heartbeat,
    async metrics() {
      await writeDocument(deps.kv, TRADING_METRICS_KEY, { ts: deps.clock.now(), text: await deps.metrics.text() });
    },
  };
}

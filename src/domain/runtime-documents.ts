/**
 * Documents the trading process publishes in the key-value store for the API to read: heartbeat
 * (for /health), portfolio (for deleverage and the kill's instructions), metrics text (for
 * /metrics) and its machines' active states (for /control/machines and the console's live view).
 * Keys and shapes live here so both processes agree.
 */
import type { AccountSnapshot } from './portfolio.js';
import type { SystemState } from './control.js';

export const HEARTBEAT_KEY = 'trading:heartbeat';
export const PORTFOLIO_KEY = 'trading:portfolio';
export const TRADING_METRICS_KEY = 'trading:metrics';
export const API_HEARTBEAT_KEY = 'api:heartbeat';
export const MACHINES_KEY = 'trading:machines';

/**
 * A heartbeat older than this marks its process as stale when the heartbeat does not say how often
 * it beats (one written before `intervalMs` existed); the single-instance check also uses it.
 */
export const HEARTBEAT_STALE_MS = 30_000;

/**
 * A heartbeat is stale after this many of its own intervals: one missed beat can be a slow store
 * write or a long cycle, three in a row is a process that is frozen, hung or gone.
 */
export const HEARTBEAT_STALE_INTERVALS = 3;
/** …but never sooner than this, so a very short HEARTBEAT_MS does not flap on a pause of the event loop. */
export const HEARTBEAT_STALE_FLOOR_MS = 2_000;

/** How old this heartbeat may get before its process counts as stale. */
export function heartbeatStaleAfterMs(beat: Pick<TradingHeartbeat, 'intervalMs'>): number {
  const interval = beat.intervalMs;
  if (interval === undefined || !Number.isFinite(interval) || interval <= 0) return HEARTBEAT_STALE_MS;
  return Math.max(HEARTBEAT_STALE_INTERVALS * interval, HEARTBEAT_STALE_FLOOR_MS);
}

export interface TradingHeartbeat {
  pid: number;
  /** Epoch ms of this heartbeat. */
  ts: number;
  /** How often this process beats (HEARTBEAT_MS), so a reader can tell a late beat from a missing one. */
  intervalMs?: number;
  state: SystemState;
  epoch: number;
  /** Last completed cycle number (0 before the first). */
  lastCycle: number;
  /** Epoch ms when the last cycle ended, null before the first. */
  lastCycleAt: number | null;
  mode: string;
  /** Host name, so a restart on the same host can tell a dead predecessor from a live one. */
  host?: string;
  /** True in the last heartbeat of a process that stopped cleanly. */
  stopped?: boolean;
  /** Why trading is halted for safety (src/application/safety-monitor.ts), null when it is not. */
  halt?: string | null;
}

/**
 * The API process's heartbeat: the trading process opens no new exposure when it has not seen it
 * move for CONTROL_PLANE_TIMEOUT. `seq` grows with every beat, so the trading process measures the
 * silence on its own clock (a change seen), never by comparing another host's clock with its own.
 */
export interface ApiHeartbeat {
  pid: number;
  host: string;
  /** Epoch ms of this beat (only used to judge the first beat a trading process sees). */
  ts: number;
  seq: number;
}

export type PortfolioDocument = AccountSnapshot;

export interface TradingMetricsDocument {
  ts: number;
  /** Prometheus text exposition of the trading process's registry. */
  text: string;
}

/** The machines whose active states the trading process publishes, by the name the API gives them. */
export const MACHINE_IDS = ['trading', 'cycle', 'order-manager'] as const;
export type MachineId = (typeof MACHINE_IDS)[number];

/**
 * The active states of the root, the current cycle and the order manager: each machine's own
 * StateNode ids (`trading.control.running.cycling`, `cycle.deciding.sizing`, `oms.mode.accepting`),
 * ancestors included, so a reader highlights a node without knowing the chart. Written coalesced
 * (at most one write per ~100 ms), never per transition.
 */
export interface MachinesDocument {
  /** Epoch ms of this write. */
  ts: number;
  /** The cycle actor's number, null when no cycle runs. */
  cycle: number | null;
  /** `cycle` is [] when no cycle actor exists. */
  active: Record<MachineId, string[]>;
}

/**
 * Documents the trading process publishes in the key-value store for the API to read: heartbeat
 * (for /health), portfolio (for deleverage and the kill's instructions) and metrics text (for
 * /metrics). Keys and shapes live here so both processes agree.
 */
import type { AccountSnapshot } from './portfolio.js';
import type { SystemState } from './control.js';

export const HEARTBEAT_KEY = 'trading:heartbeat';
export const PORTFOLIO_KEY = 'trading:portfolio';
export const TRADING_METRICS_KEY = 'trading:metrics';

/** A heartbeat older than this marks the trading process as stale in /health. */
export const HEARTBEAT_STALE_MS = 30_000;

export interface TradingHeartbeat {
  pid: number;
  /** Epoch ms of this heartbeat. */
  ts: number;
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
}

export type PortfolioDocument = AccountSnapshot;

export interface TradingMetricsDocument {
  ts: number;
  /** Prometheus text exposition of the trading process's registry. */
  text: string;
}

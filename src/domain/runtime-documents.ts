/**
 * Documents the processes share in the key-value store: the trading process's heartbeat (for
 * /health), portfolio (for deleverage and the kill's instructions), metrics text (for /metrics), its
 * machines' active states (for /control/machines and the console's live view) and its replay cursor;
 * the API's heartbeat (for the trading process's control-plane check). Keys and types live here; each
 * type is its schema's Static type (src/domain/documents/), and the registry (documents/registry.ts)
 * gives each key its schema and version, so both processes agree and neither trusts a cast.
 */
import type { Static } from 'typebox';
import type { ApiHeartbeatSchema } from './documents/api-heartbeat.js';
import type { MachinesDocumentSchema } from './documents/machines.js';
import type { NotifierStatusSchema } from './documents/notifier-status.js';
import type { PortfolioSchema } from './documents/portfolio.js';
import type { TradingHeartbeatSchema } from './documents/trading-heartbeat.js';
import type { TradingMetricsSchema } from './documents/trading-metrics.js';
import type { MACHINE_IDS } from './documents/machines.js';

export const HEARTBEAT_KEY = 'trading:heartbeat';
export const PORTFOLIO_KEY = 'trading:portfolio';
export const TRADING_METRICS_KEY = 'trading:metrics';
export const API_HEARTBEAT_KEY = 'api:heartbeat';
export const MACHINES_KEY = 'trading:machines';
/** Where a file replay stands, for the next trading process (src/runtime/trading/market-feed.ts). */
export const REPLAY_CURSOR_KEY = 'trading:replay-cursor';
/** The protective exits' state: trailing best prices and cooldowns (src/domain/protection.ts). */
export const PROTECTION_KEY = 'trading:protection';
/** symbol → the agent that owns its held position (src/domain/documents/owners.ts). */
export const OWNERS_KEY = 'trading:owners';
/** The risk engine's trading state: active, reducing, halted (src/domain/risk/trading-state.ts). */
export const RISK_STATE_KEY = 'trading:risk-state';
/** The live venue's NAV highs over RISK_DRAWDOWN_WINDOW (src/domain/documents/live-peaks.ts). */
export const LIVE_PEAKS_KEY = 'live:peaks';
/** The live account's fees and funding from the exchange's income history (src/domain/documents/live-income.ts). */
export const LIVE_INCOME_KEY = 'live:income';
/** The notifier's backlog and failing targets, for /health and /metrics (src/domain/documents/notifier-status.ts). */
export const NOTIFIER_STATUS_KEY = 'notify:status';
/** A kill being written marks itself here; other control writers wait (src/application/kill-priority.ts). */
export const KILL_PENDING_KEY = 'control:kill-pending';

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

export type TradingHeartbeat = Static<typeof TradingHeartbeatSchema>;
export type ApiHeartbeat = Static<typeof ApiHeartbeatSchema>;
export type PortfolioDocument = Static<typeof PortfolioSchema>;
export type TradingMetricsDocument = Static<typeof TradingMetricsSchema>;
export type MachinesDocument = Static<typeof MachinesDocumentSchema>;
export type NotifierStatus = Static<typeof NotifierStatusSchema>;

export { MACHINE_IDS } from './documents/machines.js';
export type MachineId = (typeof MACHINE_IDS)[number];

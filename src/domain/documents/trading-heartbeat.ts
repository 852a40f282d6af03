/**
 * The trading process's heartbeat (HEARTBEAT_KEY): what /health, the event stream and the next
 * trading process's cycle numbering read. Written on every HEARTBEAT_MS and after account changes.
 */
import { Type } from 'typebox';
import { SystemStateSchema } from './system-state.js';

const EpochMs = Type.Number({ minimum: 0 });

export const TradingHeartbeatSchema = Type.Object({
  pid: Type.Integer({ minimum: 0 }),
  /** Epoch ms of this heartbeat. */
  ts: EpochMs,
  /** How often this process beats (HEARTBEAT_MS), so a reader can tell a late beat from a missing one. */
  intervalMs: Type.Optional(Type.Number({ minimum: 0 })),
  state: SystemStateSchema,
  epoch: Type.Integer({ minimum: 0 }),
  /** Last completed cycle number (0 before the first). */
  lastCycle: Type.Integer({ minimum: 0 }),
  /** Epoch ms when the last cycle ended, null before the first. */
  lastCycleAt: Type.Union([EpochMs, Type.Null()]),
  mode: Type.String(),
  /** Host name, so a restart on the same host can tell a dead predecessor from a live one. */
  host: Type.Optional(Type.String()),
  /** True in the last heartbeat of a process that stopped cleanly. */
  stopped: Type.Optional(Type.Boolean()),
  /**
   * The last wall-clock step the process saw (src/application/clock-steps.ts): how far (ms, negative
   * back) and when (epoch ms, after it). Optional: absent before any step and from older releases.
   */
  clockStep: Type.Optional(Type.Object({ stepMs: Type.Number(), at: EpochMs })),
  /** Why trading is halted for safety (src/application/safety-monitor.ts), null when it is not. */
  halt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** The halt's cause in words and when it began (epoch ms); optional, absent when not halted. */
  haltMessage: Type.Optional(Type.String({ maxLength: 1000 })),
  haltSince: Type.Optional(EpochMs),
  /**
   * The risk engine's trading state (src/domain/risk/trading-state.ts): `reducing` means a drawdown
   * beyond RISK_MAX_DRAWDOWN (only closes pass; it ends by `tcs risk reset` or the window), `halted`
   * the kill. Optional: a heartbeat of the release before it reads as version 1 (and means: unknown).
   */
  risk: Type.Optional(
    Type.Object({
      state: Type.Union([Type.Literal('active'), Type.Literal('reducing'), Type.Literal('halted')]),
      /** Epoch ms the state was entered; null when not known. */
      since: Type.Union([EpochMs, Type.Null()]),
      reason: Type.String({ maxLength: 1000 }),
    }),
  ),
  /**
   * The live venue's position drift (src/adapters/live-venue/): symbols whose exchange position the
   * system's own fills do not explain; openings are refused while any. Absent for the paper venue.
   */
  positionDrift: Type.Optional(
    Type.Array(Type.Object({ symbol: Type.String(), expected: Type.Number(), actual: Type.Number() }), {
      maxItems: 100,
    }),
  ),
  /**
   * The live venue's exchange request weight (src/domain/request-weight.ts): the minute's weight used
   * and the limit, which requests the budget holds back now, and how many it held since the start,
   * by kind. Absent for the paper venue and in a heartbeat of the release before it.
   */
  requestWeight: Type.Optional(
    Type.Object({
      limit: Type.Number({ minimum: 0 }),
      used: Type.Number({ minimum: 0 }),
      share: Type.Number({ minimum: 0 }),
      holding: Type.Union([Type.Literal('none'), Type.Literal('reads_and_openings'), Type.Literal('all')]),
      held: Type.Object({
        read: Type.Integer({ minimum: 0 }),
        opening: Type.Integer({ minimum: 0 }),
        close: Type.Integer({ minimum: 0 }),
      }),
    }),
  ),
  /**
   * The last cycle's market data judged against FEED_STALE_MS (src/application/market-freshness.ts):
   * `stale` lists the symbols too old to trade (openings refused LIQUIDITY_STALE) with their age at
   * the cycle's time, `since` the first cycle of the spell (null when none). /health is degraded and
   * names them. Optional: absent before the first cycle and in a heartbeat of the release before it.
   */
  marketData: Type.Optional(
    Type.Object({
      limitMs: Type.Number({ minimum: 0 }),
      since: Type.Union([EpochMs, Type.Null()]),
      stale: Type.Array(Type.Object({ symbol: Type.String(), ageMs: Type.Union([Type.Number(), Type.Null()]) }), {
        maxItems: 100,
      }),
    }),
  ),
  /**
   * Positions no configured strategy closes (src/domain/orphaned-positions.ts): their symbol is not in
   * SYMBOLS, or the agent that opened them is not in STRATEGIES; /health is degraded and names them.
   * Optional: absent in a heartbeat of the release before it (none known).
   */
  orphanedPositions: Type.Optional(
    Type.Array(
      Type.Object({
        symbol: Type.String({ maxLength: 20 }),
        qty: Type.Number(),
        why: Type.Union([Type.Literal('symbol_not_listed'), Type.Literal('strategy_removed')]),
        agent: Type.Optional(Type.String({ maxLength: 200 })),
      }),
      { maxItems: 100 },
    ),
  ),
  /**
   * The strategy agents failing now (src/domain/failing-agents.ts: an error in one of an agent's
   * last 3 analyses); /health is degraded and names them. Optional, so a heartbeat of the release
   * before it still reads as version 1 (and means: none known).
   */
  failingAgents: Type.Optional(
    Type.Array(
      Type.Object({
        agent: Type.String(),
        since: EpochMs,
        lastErrorAt: EpochMs,
        errors: Type.Integer({ minimum: 1 }),
        symbol: Type.String(),
        message: Type.String(),
      }),
      // One entry per configured strategy at most; the bound keeps a bad writer from bloating /health.
      { maxItems: 100 },
    ),
  ),
});

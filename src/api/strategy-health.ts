/**
 * /health's `strategies` component (issue 19): the strategy agents failing now, as the trading
 * process's heartbeat reports them (src/domain/failing-agents.ts says when an agent is failing: an
 * error in one of its last 3 analyses). `failing` makes the whole answer `degraded`, with each agent
 * named. Without a fresh heartbeat nothing is known about the strategies: `unknown`, no list (the
 * trading process's own component says why).
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { TradingHeartbeat } from '../domain/runtime-documents.js';

const Iso = Type.String({ format: 'date-time' });

export const StrategiesHealthSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('failing'), Type.Literal('unknown')]),
    failing: Type.Array(
      Type.Object({
        agent: Type.String(),
        since: Iso,
        last_error_at: Iso,
        errors: Type.Integer({ description: 'Errors (one per symbol and cycle) since `since`' }),
        symbol: Type.String({ description: "The latest error's symbol" }),
        message: Type.String({ description: 'The latest error thrown, cut to 500 characters' }),
      }),
    ),
  },
  {
    description:
      'Strategy agents that threw in one of their last 3 analyses; `failing` makes the status degraded. Ends by itself once the agent has run 3 cycles without an error.',
  },
);

export type StrategiesHealth = Static<typeof StrategiesHealthSchema>;

export const UNKNOWN_STRATEGIES: StrategiesHealth = { status: 'unknown', failing: [] };

/** The component from the trading heartbeat; `fresh` is false when it is missing, stale or refused. */
export function strategiesHealth(beat: TradingHeartbeat | null, fresh: boolean): StrategiesHealth {
  if (beat === null || !fresh) return UNKNOWN_STRATEGIES;
  const failing = (beat.failingAgents ?? []).map((a) => ({
    agent: a.agent,
    since: new Date(a.since).toISOString(),
    last_error_at: new Date(a.lastErrorAt).toISOString(),
    errors: a.errors,
    symbol: a.symbol,
    message: a.message,
  }));
  return { status: failing.length > 0 ? 'failing' : 'ok', failing };
}

/**
 * /health's `market_data` component (issue 32): the symbols whose data was too old to trade at the
 * last cycle (older than FEED_STALE_MS at the cycle's time, so every opening in them is refused
 * LIQUIDITY_STALE), as the trading process's heartbeat reports them. `stale` makes the whole answer
 * `degraded`, each symbol named with its age. Without a fresh heartbeat, or one from before the first
 * cycle (or an older release), nothing is known: `unknown`.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { TradingHeartbeat } from '../domain/runtime-documents.js';

export const MarketDataHealthSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('stale'), Type.Literal('unknown')]),
    limit_ms: Type.Optional(Type.Number({ description: 'The staleness limit, FEED_STALE_MS' })),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'The first cycle of this spell' })),
    stale: Type.Array(
      Type.Object({
        symbol: Type.String(),
        age_ms: Type.Union([Type.Number(), Type.Null()], {
          description: "The data's age at the last cycle's time (null: a stamp that is not a number)",
        }),
      }),
    ),
  },
  {
    description:
      "The last cycle's market data: `stale` when some symbols' data was older than FEED_STALE_MS (openings in them refused LIQUIDITY_STALE, status degraded). Ends by itself with the first cycle whose data is fresh; a cause that lasts is usually a slow or rate-limited exchange (fewer symbols or longer cycles).",
  },
);

export type MarketDataHealth = Static<typeof MarketDataHealthSchema>;

export const UNKNOWN_MARKET_DATA: MarketDataHealth = { status: 'unknown', stale: [] };

/** The component from the trading heartbeat; `fresh` is false when it is missing, stale or refused. */
export function marketDataHealth(beat: TradingHeartbeat | null, fresh: boolean): MarketDataHealth {
  const data = beat?.marketData;
  if (!data || !fresh) return UNKNOWN_MARKET_DATA;
  const stale = data.stale.map((s) => ({ symbol: s.symbol, age_ms: s.ageMs === null ? null : Math.round(s.ageMs) }));
  if (stale.length === 0) return { status: 'ok', limit_ms: data.limitMs, stale };
  return {
    status: 'stale',
    limit_ms: data.limitMs,
    ...(data.since !== null ? { since: new Date(data.since).toISOString() } : {}),
    stale,
  };
}

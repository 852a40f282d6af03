/**
 * /health's `venue` component (issue 21): the live venue's position drift, as the trading process's
 * heartbeat reports it — symbols whose exchange position the system's own fills do not explain
 * (changed by hand, liquidated). While any, openings are refused (POSITION_DRIFT) and the whole
 * answer is `degraded`, each symbol named. The paper venue cannot drift: `ok` with nothing listed.
 * Without a fresh heartbeat nothing is known: `unknown`.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { TradingHeartbeat } from '../domain/runtime-documents.js';

/** How drift ends, as the operator runs it (docs/operate/live-trading.md). */
export const DRIFT_RESOLVE =
  "put the exchange's position back to what the system's fills explain, or restart the trading process (it adopts the exchange's positions)";

export const VenueHealthSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('drift'), Type.Literal('unknown')]),
    drift: Type.Array(
      Type.Object({
        symbol: Type.String(),
        expected: Type.Number({ description: "The position the system's own fills explain" }),
        actual: Type.Number({ description: 'The position the exchange holds' }),
      }),
    ),
    resolve: Type.Optional(Type.String({ description: 'How drift ends' })),
  },
  {
    description:
      "The live venue's reconciliation: `drift` when the exchange holds positions the system's fills do not explain (openings refused, status degraded); `ok` otherwise, and always for the paper venue.",
  },
);

export type VenueHealth = Static<typeof VenueHealthSchema>;

export const UNKNOWN_VENUE: VenueHealth = { status: 'unknown', drift: [] };

/** The component from the trading heartbeat; `fresh` is false when it is missing, stale or refused. */
export function venueHealth(beat: TradingHeartbeat | null, fresh: boolean): VenueHealth {
  if (beat === null || !fresh) return UNKNOWN_VENUE;
  const drift = (beat.positionDrift ?? []).map((d) => ({ symbol: d.symbol, expected: d.expected, actual: d.actual }));
  return drift.length > 0 ? { status: 'drift', drift, resolve: DRIFT_RESOLVE } : { status: 'ok', drift };
}

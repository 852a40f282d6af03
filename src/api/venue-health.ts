/**
 * /health's `venue` component (issue 21): the live venue's position drift, as the trading process's
 * heartbeat reports it — symbols whose exchange position the system's own fills do not explain
 * (changed by hand, liquidated). While any, openings are refused (POSITION_DRIFT) and the whole
 * answer is `degraded`, each symbol named. The paper venue cannot drift: `ok` with nothing listed.
 * Without a fresh heartbeat nothing is known: `unknown`. A live venue also reports its exchange
 * request weight (`request_weight`, issue 32): the share used and what the budget holds back; while
 * it holds openings the whole answer is `degraded` (nothing new trades until the minute rolls; a ban
 * is also the `exchange_banned` halt), with `reason` saying what is held.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { describeHolding } from '../domain/request-weight.js';
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
    request_weight: Type.Optional(
      Type.Object(
        {
          limit: Type.Number({ description: "The exchange's request weight limit per minute (REQUEST_WEIGHT)" }),
          used: Type.Number({ description: "The minute's weight used (as the exchange last told it) and in flight" }),
          share: Type.Number({ description: 'used / limit' }),
          holding: Type.Union([Type.Literal('none'), Type.Literal('reads_and_openings'), Type.Literal('all')], {
            description:
              '`reads_and_openings`: past 80 % of the limit, only closes and cancels are sent; `all`: at the limit, or the exchange asked to wait (429) or banned the IP (418); until the minute rolls or the wait ends',
          }),
          held: Type.Object(
            { read: Type.Integer(), opening: Type.Integer(), close: Type.Integer() },
            { description: 'Requests held back unsent since the trading process started, by kind' },
          ),
          reason: Type.Optional(Type.String({ description: 'What is held now, in words (absent when nothing is)' })),
        },
        {
          description:
            "The live venue's exchange request weight budget (absent for the paper venue): while `holding` is not `none` the answer is degraded; a ban is also a halt (exchange_banned).",
        },
      ),
    ),
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
  const weight = requestWeightOf(beat);
  return drift.length > 0
    ? { status: 'drift', drift, resolve: DRIFT_RESOLVE, ...weight }
    : { status: 'ok', drift, ...weight };
}

/** The heartbeat's request weight as /health names it, with what it holds in words. */
function requestWeightOf(beat: TradingHeartbeat): Pick<VenueHealth, 'request_weight'> {
  const w = beat.requestWeight;
  if (!w) return {};
  const reason = describeHolding(w);
  return {
    request_weight: { ...w, held: { ...w.held }, ...(reason !== null ? { reason } : {}) },
  };
}

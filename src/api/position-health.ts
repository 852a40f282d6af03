/**
 * /health's `positions` component (issue 30): positions no configured strategy closes, as the
 * trading process's heartbeat reports them (src/domain/orphaned-positions.ts) — their symbol is not in
 * SYMBOLS, or the agent that opened them is not in STRATEGIES. While any, the answer is `degraded`,
 * each named with the one call that closes them. Without a fresh heartbeat nothing is known: `unknown`.
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { TradingHeartbeat } from '../domain/runtime-documents.js';

export const PositionsHealthSchema = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('orphaned'), Type.Literal('unknown')]),
    orphaned: Type.Array(
      Type.Object({
        symbol: Type.String(),
        qty: Type.Number({ description: 'Signed' }),
        why: Type.Union([Type.Literal('symbol_not_listed'), Type.Literal('strategy_removed')], {
          description:
            'symbol_not_listed: not in SYMBOLS; strategy_removed: the agent that opened it is not in STRATEGIES',
        }),
        agent: Type.Optional(Type.String({ description: 'The agent that opened it (strategy_removed)' })),
      }),
    ),
    resolve: Type.Optional(Type.String({ description: 'The call that closes them' })),
  },
  {
    description:
      'Open positions no configured strategy closes (`orphaned`: status degraded); close them with a flatten of their symbols.',
  },
);

export type PositionsHealth = Static<typeof PositionsHealthSchema>;

export const UNKNOWN_POSITIONS: PositionsHealth = { status: 'unknown', orphaned: [] };

/** The component from the trading heartbeat; `fresh` is false when it is missing, stale or refused. */
export function positionsHealth(beat: TradingHeartbeat | null, fresh: boolean): PositionsHealth {
  if (beat === null || !fresh) return UNKNOWN_POSITIONS;
  const orphaned = (beat.orphanedPositions ?? []).map((o) => ({ ...o }));
  if (orphaned.length === 0) return { status: 'ok', orphaned };
  const symbols = JSON.stringify(orphaned.map((o) => o.symbol));
  return { status: 'orphaned', orphaned, resolve: `POST /control/flatten {"symbols":${symbols}}` };
}

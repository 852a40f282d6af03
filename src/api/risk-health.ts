/**
 * /health's `risk` component (issue 20): the risk engine's trading state as the trading process's
 * heartbeat reports it (src/domain/risk/trading-state.ts says what each state means). `reducing` — a
 * drawdown beyond RISK_MAX_DRAWDOWN, only closes pass — makes the whole answer `degraded` and names
 * the two ways it ends. `halted` does not by itself: it is the kill, which the control state shows.
 * Without a fresh heartbeat, or with one from a release that does not carry the field, the state is
 * not known: `unknown` (never a stale `active`, which would read as "trading normally").
 */
import { Type } from 'typebox';
import type { Static } from 'typebox';
import type { TradingHeartbeat } from '../domain/runtime-documents.js';

/** How `reducing` ends, as the operator runs it (docs/operate/risk.md, Drawdown). */
export const RISK_REDUCING_RESOLVE =
  'wait for RISK_DRAWDOWN_WINDOW to pass or run `tcs risk reset --reason TEXT` (POST /control/risk/reset)';

const NOT_REPORTED = "the trading process's heartbeat does not carry the risk state (a release before it)";

export const RiskHealthSchema = Type.Object(
  {
    status: Type.Union(
      [Type.Literal('active'), Type.Literal('reducing'), Type.Literal('halted'), Type.Literal('unknown')],
      {
        description:
          '`active`: every order judged by the guards. `reducing`: drawdown beyond RISK_MAX_DRAWDOWN, only ' +
          'exposure-lowering orders pass and the engine closes positions itself (status degraded). `halted`: ' +
          'trading killed (see `state`). `unknown`: no fresh trading heartbeat, or one without the risk state',
      },
    ),
    since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the state was entered; null when unknown or not recorded',
    }),
    reason: Type.Union([Type.String(), Type.Null()], {
      description:
        'Why the state was entered (for `reducing`: the drawdown and the limit; for `halted` only that trading is ' +
        "killed: the operator's reason needs a key, GET /control/status); null when unknown",
    }),
    resolve: Type.Optional(Type.String({ description: 'How `reducing` ends' })),
  },
  {
    description:
      "The risk engine's trading state from the trading heartbeat. `reducing` makes the status degraded; it " +
      'ends only by the drawdown reset (`tcs risk reset`, POST /control/risk/reset) or by RISK_DRAWDOWN_WINDOW ' +
      'dropping the peak the breach was measured from, never because prices bounced back.',
  },
);

export type RiskHealth = Static<typeof RiskHealthSchema>;

const KILLED = 'trading is killed (the reason is in GET /control/status)';

export const UNKNOWN_RISK: RiskHealth = { status: 'unknown', since: null, reason: null };

/** The component from the trading heartbeat; `fresh` is false when it is missing, stale or refused. */
export function riskHealth(beat: TradingHeartbeat | null, fresh: boolean): RiskHealth {
  if (beat === null || !fresh) return UNKNOWN_RISK;
  if (beat.risk === undefined) return { ...UNKNOWN_RISK, reason: NOT_REPORTED };
  const { state, since, reason } = beat.risk;
  return {
    status: state,
    since: since === null ? null : new Date(since).toISOString(),
    // /health needs no key: the operator's free-text kill reason stays behind GET /control/status.
    reason: state === 'halted' ? KILLED : reason,
    ...(state === 'reducing' ? { resolve: RISK_REDUCING_RESOLVE } : {}),
  };
}

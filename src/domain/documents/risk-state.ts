/**
 * The risk engine's trading state (RISK_STATE_KEY, src/domain/risk/trading-state.ts): written by the
 * trading process on every transition and read when it starts, so a restart keeps `reducing` and the
 * peak it was measured from instead of starting `active` as if nothing had happened.
 */
import { Type } from 'typebox';

export const RiskStateSchema = Type.Object({
  state: Type.Union([Type.Literal('active'), Type.Literal('reducing'), Type.Literal('halted')]),
  /** Epoch ms the state was entered; null when it was not known. */
  since: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
  reason: Type.String(),
  /** `reducing`: the peak NAV the breach was measured from; null in the other states. */
  peakNav: Type.Union([Type.Number(), Type.Null()]),
});

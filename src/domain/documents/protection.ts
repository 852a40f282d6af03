/**
 * The protective exits' state (PROTECTION_KEY, src/domain/protection.ts): per held symbol the side,
 * the best price since entry (the trailing stop's reference) and the agent that opened it; per agent
 * the cooldowns after a stop. Written by the trading process when a cycle changed it and read when it
 * starts, so a trailing stop does not forget its best price over a restart.
 */
import { Type } from 'typebox';

export const ProtectionStateSchema = Type.Object({
  positions: Type.Record(
    Type.String(),
    Type.Object({
      side: Type.Union([Type.Literal(1), Type.Literal(-1)]),
      best: Type.Number({ exclusiveMinimum: 0 }),
      agent: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  cooldowns: Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer({ minimum: 0 }))),
});

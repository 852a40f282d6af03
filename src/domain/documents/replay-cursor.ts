/**
 * Where a file replay stands (REPLAY_CURSOR_KEY): the data directory and the next candle's open time
 * (null: the data ran out). Read by the next trading process so the replay continues; a malformed
 * one fails the start (restarting the replay from its first candle would mark the persisted account
 * at prices from days before).
 */
import { Type } from 'typebox';

export const ReplayCursorSchema = Type.Object({
  dir: Type.String(),
  next: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
});

/**
 * The API process's heartbeat (API_HEARTBEAT_KEY): the trading process opens no new exposure when it
 * has not seen it move for CONTROL_PLANE_TIMEOUT. `seq` grows with every beat, so the trading process
 * measures the silence on its own clock (a change seen), never by comparing another host's clock.
 */
import { Type } from 'typebox';

export const ApiHeartbeatSchema = Type.Object({
  pid: Type.Integer({ minimum: 0 }),
  host: Type.String(),
  /** Epoch ms of this beat (only used to judge the first beat a trading process sees). */
  ts: Type.Number({ minimum: 0 }),
  seq: Type.Integer({ minimum: 0 }),
});

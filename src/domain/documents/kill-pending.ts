/**
 * The mark a kill leaves while it is being written (KILL_PENDING_KEY, src/application/kill-priority.ts):
 * until when, in epoch ms on the writer's clock, other control writers wait for it.
 */
import { Type } from 'typebox';

export const KillPendingSchema = Type.Object({
  until: Type.Number({ minimum: 0 }),
});

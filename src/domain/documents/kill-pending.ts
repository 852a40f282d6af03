/**
 * The mark a kill leaves while it is being written (KILL_PENDING_KEY, src/application/kill-priority.ts):
 * for how long other control writers wait for it, from when each of them first sees it (`id` tells
 * one mark from the next); `until` (epoch ms on the writer's wall clock) is what marks of earlier
 * releases carry alone, judged on the reader's wall clock only for them.
 */
import { Type } from 'typebox';

export const KillPendingSchema = Type.Object({
  until: Type.Number({ minimum: 0 }),
  forMs: Type.Optional(Type.Number({ minimum: 0 })),
  id: Type.Optional(Type.String({ maxLength: 64 })),
});

/**
 * Who owns each held position (OWNERS_KEY): symbol → the agent whose signal set it, the allocator's
 * memory (machines/allocator.machine.ts). Written by the trading process when a cycle changed it and
 * read when it starts, so after a restart the position adopted from the exchange is still its
 * strategy's, and that strategy's exit closes it (without it, every exit was EXIT_NOT_OWNER).
 */
import { Type } from 'typebox';

export const OwnersSchema = Type.Object({
  owners: Type.Record(Type.String({ minLength: 1 }), Type.String({ minLength: 1 })),
});

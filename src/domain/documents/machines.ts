/**
 * The active states of the trading process's machines (MACHINES_KEY): the root, the current cycle
 * and the order manager, each as its StateNode ids, ancestors included. Written coalesced (at most
 * one write per ~100 ms). The lists are bounded here; that every id is one of the machines' own, once,
 * is checked by the reader that knows the machines (src/domain/machines-document.ts).
 */
import { Type } from 'typebox';

/** The machines whose active states the trading process publishes, by the name the API gives them. */
export const MACHINE_IDS = ['trading', 'cycle', 'order-manager'] as const;

/** More active nodes than any of the three machines has (the largest has a few dozen states). */
export const MAX_ACTIVE_IDS = 256;
const MAX_ID_LENGTH = 200;

const IdList = Type.Array(Type.String({ maxLength: MAX_ID_LENGTH }), { maxItems: MAX_ACTIVE_IDS });

export const MachinesDocumentSchema = Type.Object({
  /** Epoch ms of this write. */
  ts: Type.Number({ minimum: 0 }),
  /** The cycle actor's number, null when no cycle runs. */
  cycle: Type.Union([Type.Integer(), Type.Null()]),
  /** `cycle` is [] when no cycle actor exists. */
  active: Type.Object({ trading: IdList, cycle: IdList, 'order-manager': IdList }),
});

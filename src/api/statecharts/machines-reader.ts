/**
 * Reads the machines document the trading process publishes (MACHINES_KEY) into the API's shape,
 * for GET /control/machines and the `machines` stream event alike. A document that is malformed is
 * (another shape, ids the machines do not have) is treated as absent (nothing published) and logged once until a good one is read again, so a
 * stream polling it every second does not fill the log. A store that fails throws: the route
 * answers 503 like every route, the hub logs and tries again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { knownStateIds } from '../../application/machine-trees.js';
import { parseMachinesDocument } from '../../domain/machines-document.js';
import { MACHINES_KEY } from '../../domain/runtime-documents.js';
import type { KeyValueStore } from '../../ports/key-value-store.js';
import type { MachinesEventData } from './schemas.js';

export const NOTHING_PUBLISHED: MachinesEventData = {
  published_at: null,
  cycle: null,
  active: { trading: [], cycle: [], 'order-manager': [] },
};

export interface MachinesReader {
  read(): Promise<MachinesEventData>;
}

export function createMachinesReader(kv: KeyValueStore, log: FastifyBaseLogger): MachinesReader {
  let warned = false;
  // Ids that are not the definitions' own would be drawn nowhere, and a flood of them would outgrow
  // every stream client's buffer: such a document is malformed.
  const known = knownStateIds();
  return {
    async read() {
      const raw = await kv.get(MACHINES_KEY);
      if (raw === null) return NOTHING_PUBLISHED;
      const doc = parseMachinesDocument(raw, known);
      if (doc === null) {
        if (!warned) log.warn({ key: MACHINES_KEY }, 'machine states: the published document is malformed; ignored');
        warned = true;
        return NOTHING_PUBLISHED;
      }
      warned = false;
      return { published_at: new Date(doc.ts).toISOString(), cycle: doc.cycle, active: doc.active };
    },
  };
}

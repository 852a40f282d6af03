/**
 * Reads the machines document the trading process publishes (MACHINES_KEY) into the API's shape,
 * for GET /control/machines and the `machines` stream event alike. A document that is refused (not
 * its schema, another version, ids the machines do not have) is treated as absent (nothing
 * published) and logged once until a good one is read again, so a stream polling it every second
 * does not fill the log. A store that fails throws: the route answers 503 like every route, the hub
 * logs and tries again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { knownStateIds } from '../../application/machine-trees.js';
import { DocumentError } from '../../domain/documents/document-error.js';
import { knownStatesOnly } from '../../domain/machines-document.js';
import { MACHINES_KEY } from '../../domain/runtime-documents.js';
import type { MachinesDocument } from '../../domain/runtime-documents.js';
import { readDocument } from '../../ports/documents.js';
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
  // every stream client's buffer: such a document is refused.
  const known = knownStateIds();
  const refused = (detail: string) => {
    if (!warned)
      log.warn(
        { key: MACHINES_KEY, detail },
        'machine states: the published document is malformed (or of another version); ignored',
      );
    warned = true;
    return NOTHING_PUBLISHED;
  };
  return {
    async read() {
      let stored: MachinesDocument | null;
      try {
        stored = await readDocument(kv, MACHINES_KEY);
      } catch (err) {
        if (err instanceof DocumentError) return refused(err.message);
        throw err;
      }
      if (stored === null) return NOTHING_PUBLISHED;
      const doc = knownStatesOnly(stored, known);
      if (doc === null) return refused('an id the machines do not have, or one repeated');
      warned = false;
      return { published_at: new Date(doc.ts).toISOString(), cycle: doc.cycle, active: doc.active };
    },
  };
}

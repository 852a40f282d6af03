/**
 * Reading the machines document (MACHINES_KEY) back from the key-value store: beyond its schema
 * (src/domain/documents/machines.ts, bounded lists), every id must be one of the machines' own, once:
 * the document reaches every stream client in each snapshot, so a flood of foreign ids would outgrow
 * their buffers, and an id no chart has would be drawn nowhere. A document that fails either check
 * is refused as a whole: showing half a chart as if it were the truth would mislead more than none.
 */
import { DocumentError } from './documents/document-error.js';
import { decodeDocument } from './documents/registry.js';
import { MACHINES_KEY, MACHINE_IDS } from './runtime-documents.js';
import type { MachineId, MachinesDocument } from './runtime-documents.js';

/** Each machine's state node ids. */
export type KnownStateIds = Readonly<Record<MachineId, ReadonlySet<string>>>;

/**
 * The document with only the three machines, when (with `known` given) every id is one of theirs and
 * none repeats; otherwise null.
 */
export function knownStatesOnly(doc: MachinesDocument, known?: KnownStateIds): MachinesDocument | null {
  const active = {} as Record<MachineId, string[]>;
  for (const id of MACHINE_IDS) {
    const states = doc.active[id];
    const ids = known?.[id];
    if (ids !== undefined && (!states.every((s) => ids.has(s)) || new Set(states).size !== states.length)) return null;
    active[id] = [...states];
  }
  return { ts: doc.ts, cycle: doc.cycle, active };
}

/** A stored value as a machines document (schema, version and `known` ids), otherwise null. */
export function parseMachinesDocument(value: unknown, known?: KnownStateIds): MachinesDocument | null {
  try {
    const doc = decodeDocument(MACHINES_KEY, value);
    return doc === null ? null : knownStatesOnly(doc, known);
  } catch (err) {
    if (err instanceof DocumentError) return null;
    throw err;
  }
}

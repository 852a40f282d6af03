/**
 * Reading the machines document (runtime-documents.ts) back from the key-value store: the API takes
 * whatever a store holds under MACHINES_KEY, so it checks the shape instead of trusting it. A
 * document that is not what the trading process writes (another version, a hand edit, a torn
 * value) is refused as a whole: showing half a chart as if it were the truth would mislead more
 * than showing none.
 */
import { MACHINE_IDS } from './runtime-documents.js';
import type { MachineId, MachinesDocument } from './runtime-documents.js';

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The document when it has exactly the published shape, otherwise null. */
export function parseMachinesDocument(value: unknown): MachinesDocument | null {
  if (typeof value !== 'object' || value === null) return null;
  const { ts, cycle, active } = value as Record<string, unknown>;
  if (typeof ts !== 'number' || !Number.isFinite(ts) || ts < 0) return null;
  if (cycle !== null && (typeof cycle !== 'number' || !Number.isInteger(cycle))) return null;
  if (typeof active !== 'object' || active === null) return null;
  const out = {} as Record<MachineId, string[]>;
  for (const id of MACHINE_IDS) {
    const states = (active as Record<string, unknown>)[id];
    if (!isStringArray(states)) return null;
    out[id] = [...states];
  }
  return { ts, cycle, active: out };
}

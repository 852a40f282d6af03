/**
 * Reading the machines document (runtime-documents.ts) back from the key-value store: the API takes
 * whatever a store holds under MACHINES_KEY, so it checks the shape instead of trusting it. A
 * document that is not what the trading process writes (another version, a hand edit, a torn
 * value) is refused as a whole: showing half a chart as if it were the truth would mislead more
 * than showing none. Lists are bounded, and with the machines' own ids given every id must be one
 * of them, once: the document reaches every stream client in each snapshot, so a flood of ids would
 * outgrow their buffers.
 */
import { MACHINE_IDS } from './runtime-documents.js';
import type { MachineId, MachinesDocument } from './runtime-documents.js';

/** More active nodes than any of the three machines has (the largest has a few dozen states). */
export const MAX_ACTIVE_IDS = 256;
const MAX_ID_LENGTH = 200;

/** Each machine's state node ids. */
export type KnownStateIds = Readonly<Record<MachineId, ReadonlySet<string>>>;

const isIdList = (value: unknown, known: ReadonlySet<string> | undefined): value is string[] =>
  Array.isArray(value) &&
  value.length <= MAX_ACTIVE_IDS &&
  value.every((item) => typeof item === 'string' && item.length <= MAX_ID_LENGTH && (known?.has(item) ?? true)) &&
  (known === undefined || new Set(value).size === value.length);

/** The document when it has exactly the published shape (and only `known` ids, when given), otherwise null. */
export function parseMachinesDocument(value: unknown, known?: KnownStateIds): MachinesDocument | null {
  if (typeof value !== 'object' || value === null) return null;
  const { ts, cycle, active } = value as Record<string, unknown>;
  if (typeof ts !== 'number' || !Number.isFinite(ts) || ts < 0) return null;
  if (cycle !== null && (typeof cycle !== 'number' || !Number.isInteger(cycle))) return null;
  if (typeof active !== 'object' || active === null) return null;
  const out = {} as Record<MachineId, string[]>;
  for (const id of MACHINE_IDS) {
    const states = (active as Record<string, unknown>)[id];
    if (!isIdList(states, known?.[id])) return null;
    out[id] = [...states];
  }
  return { ts, cycle, active: out };
}

/**
 * manifest.json of a data directory (written by `tcs data download`, optional otherwise): the
 * timeframe, and the instruments whose lot size, tick size, minimum notional and kind override the
 * built-in table for those symbols, since the exchange that produced the data knows them best. An
 * instrument may also give `makerFee` and `takerFee` (fractions, the FEE_MAKER/FEE_TAKER ranges of
 * src/domain/fees.ts), which override those variables for that symbol in a replay.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FEE_RANGE } from '../../../domain/fees.js';
import type { Instrument } from '../../../domain/market.js';
import { DataFileError } from './data-errors.js';
import { TIMEFRAMES, TIMEFRAME_LIST } from '../../../domain/timeframes.js';

export interface Manifest {
  exchange?: string;
  /** Timeframe name, e.g. 1m. */
  timeframe?: string;
  stepMs?: number;
  instruments: Instrument[];
  /** Per-symbol fee rates the instruments declare (only the symbols and fields given). */
  fees: Record<string, { makerFee?: number; takerFee?: number }>;
  from?: string;
  to?: string;
}

const FILE = 'manifest.json';
export const SYMBOL_PATTERN = /^[A-Z0-9]{2,20}$/;

/** The manifest of `dir`, or undefined when the directory has none. */
export async function readManifest(dir: string): Promise<Manifest | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DataFileError(FILE, `cannot be read: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new DataFileError(FILE, `is not JSON: ${(err as Error).message}`);
  }
  return parseManifest(raw);
}

/** The instruments a directory's manifest declares (none without a manifest). */
export async function readManifestInstruments(dir: string): Promise<Instrument[]> {
  return (await readManifest(dir))?.instruments ?? [];
}

function parseManifest(raw: unknown): Manifest {
  const fail = (what: string): never => {
    throw new DataFileError(FILE, what);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('must be a JSON object');
  const m = raw as Record<string, unknown>;
  if (m.format !== 1) fail(`"format" must be 1, got ${JSON.stringify(m.format)}`);
  const manifest: Manifest = { instruments: [], fees: {} };
  for (const key of ['exchange', 'from', 'to'] as const) {
    const value = m[key];
    if (value === undefined) continue;
    if (typeof value !== 'string') return fail(`"${key}" must be a string`);
    manifest[key] = value;
  }
  for (const key of ['from', 'to'] as const) {
    if (manifest[key] !== undefined && Number.isNaN(Date.parse(manifest[key])))
      fail(`"${key}" is not an ISO time: ${manifest[key]}`);
  }
  if (m.timeframe !== undefined) {
    if (typeof m.timeframe !== 'string' || TIMEFRAMES[m.timeframe] === undefined) {
      fail(`"timeframe" must be one of ${TIMEFRAME_LIST}, got ${JSON.stringify(m.timeframe)}`);
    }
    manifest.timeframe = m.timeframe as string;
    manifest.stepMs = TIMEFRAMES[manifest.timeframe];
  }
  if (m.instruments !== undefined) {
    if (typeof m.instruments !== 'object' || m.instruments === null || Array.isArray(m.instruments)) {
      fail('"instruments" must be an object keyed by symbol');
    }
    for (const [symbol, spec] of Object.entries(m.instruments as Record<string, unknown>)) {
      manifest.instruments.push(parseInstrument(symbol, spec, fail));
      const fees = parseFees(symbol, spec as Record<string, unknown>, fail);
      if (fees !== null) manifest.fees[symbol] = fees;
    }
  }
  return manifest;
}

function parseInstrument(symbol: string, spec: unknown, fail: (what: string) => never): Instrument {
  const where = `instruments.${symbol}`;
  if (!SYMBOL_PATTERN.test(symbol)) fail(`${where}: symbols are upper-case letters and digits, e.g. BTCUSDT`);
  if (typeof spec !== 'object' || spec === null) fail(`${where} must be an object`);
  const s = spec as Record<string, unknown>;
  if (s.kind !== 'perp' && s.kind !== 'spot') fail(`${where}.kind must be "perp" or "spot"`);
  const positive = (key: string, allowZero = false): number => {
    const v = s[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (v === 0 && !allowZero)) {
      fail(`${where}.${key} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${JSON.stringify(v)}`);
    }
    return v as number;
  };
  return {
    symbol,
    kind: s.kind as Instrument['kind'],
    lotSize: positive('lotSize'),
    tickSize: positive('tickSize'),
    minNotional: positive('minNotional', true),
  };
}

/** An instrument's `makerFee`/`takerFee`, each optional and within its range; null when it gives neither. */
function parseFees(
  symbol: string,
  s: Record<string, unknown>,
  fail: (what: string) => never,
): { makerFee?: number; takerFee?: number } | null {
  const fees: { makerFee?: number; takerFee?: number } = {};
  for (const [key, range] of [
    ['makerFee', FEE_RANGE.maker],
    ['takerFee', FEE_RANGE.taker],
  ] as const) {
    const v = s[key];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < range.min || v > range.max)
      fail(
        `instruments.${symbol}.${key} must be a fraction of notional from ${range.min} to ${range.max} (0.0005 = 5 bp), got ${JSON.stringify(v)}`,
      );
    fees[key] = v as number;
  }
  return Object.keys(fees).length === 0 ? null : fees;
}

/**
 * `instruments` with the manifest's lot size, tick size, minimum notional and kind for the symbols
 * it declares: the exchange the data came from knows them better than the built-in table.
 */
export function applyManifestInstruments(
  instruments: readonly Instrument[],
  declared: readonly Instrument[],
): Instrument[] {
  return instruments.map((i) => {
    const d = declared.find((x) => x.symbol === i.symbol);
    return d === undefined ? { ...i } : { ...d };
  });
}

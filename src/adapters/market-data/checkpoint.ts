/**
 * The synthetic market's checkpoint: everything needed to continue the path where it stood (the
 * rng states, prices, windows, regimes and funding of every symbol, and the step count), as plain
 * JSON small enough to write after every cycle (about 1.5 kB a symbol with the default 60-close
 * window). `parseCheckpoint` checks a stored one field by field, so a damaged document is
 * reported by the field that is wrong instead of producing NaN prices later.
 */
import type { MarketFactorState } from './market-factor.js';
import type { TrendRegime, VolRegime } from './regimes.js';
import type { SymbolPathState } from './symbol-path.js';

export const CHECKPOINT_FORMAT = 'tcs.synthetic-market/1';

export interface SyntheticCheckpoint {
  format: typeof CHECKPOINT_FORMAT;
  /** The seed the market was started from (as text: numbers and strings seed alike). */
  seed: string;
  stepMs: number;
  historyLength: number;
  /** `next()` calls since the market started from its seed (warm-up not counted). */
  steps: number;
  market: MarketFactorState;
  symbols: Record<string, SymbolPathState & { kind: 'perp' | 'spot' }>;
}

const VOLS: readonly VolRegime[] = ['calm', 'normal', 'volatile'];
const TRENDS: readonly TrendRegime[] = ['up', 'flat', 'down'];

class CheckpointError extends Error {}

/** The checkpoint in `raw`, or an Error naming the first field that is wrong. */
export function parseCheckpoint(raw: unknown): SyntheticCheckpoint {
  try {
    const doc = object(raw, 'checkpoint');
    if (doc.format !== CHECKPOINT_FORMAT)
      throw new CheckpointError(`format is ${JSON.stringify(doc.format)}, expected ${CHECKPOINT_FORMAT}`);
    if (typeof doc.seed !== 'string') throw new CheckpointError('seed is not a string');
    const market = object(doc.market, 'market');
    const historyLength = positiveInteger(doc.historyLength, 'historyLength');
    const symbols: SyntheticCheckpoint['symbols'] = {};
    for (const [symbol, value] of Object.entries(object(doc.symbols, 'symbols'))) {
      const at = `symbols.${symbol}`;
      const s = object(value, at);
      const closes = numbers(s.closes, `${at}.closes`, (x) => x > 0);
      const volumeLots = numbers(s.volumeLots, `${at}.volumeLots`, (x) => Number.isInteger(x) && x >= 0);
      if (closes.length !== volumeLots.length)
        throw new CheckpointError(`${at}: closes and volumeLots differ in length`);
      let funding: SymbolPathState['funding'] = null;
      if (s.funding !== null) {
        const f = object(s.funding, `${at}.funding`);
        funding = {
          level: finite(f.level, `${at}.funding.level`),
          squeeze: finite(f.squeeze, `${at}.funding.squeeze`),
        };
      }
      symbols[symbol] = {
        kind: oneOf(s.kind, ['perp', 'spot'] as const, `${at}.kind`),
        rng: rngState(s.rng, `${at}.rng`),
        logPrice: finite(s.logPrice, `${at}.logPrice`),
        lastTicks: positiveInteger(s.lastTicks, `${at}.lastTicks`),
        ...(s.lastIndex === undefined ? {} : { lastIndex: integer(s.lastIndex, `${at}.lastIndex`) }),
        closes,
        volumeLots,
        funding,
      };
    }
    return {
      format: CHECKPOINT_FORMAT,
      seed: doc.seed,
      stepMs: finite(doc.stepMs, 'stepMs'),
      historyLength,
      steps: integer(doc.steps, 'steps'),
      market: {
        rng: rngState(market.rng, 'market.rng'),
        vol: oneOf(market.vol, VOLS, 'market.vol'),
        trend: oneOf(market.trend, TRENDS, 'market.trend'),
      },
      symbols,
    };
  } catch (err) {
    if (err instanceof CheckpointError) throw new Error(`synthetic market checkpoint: ${err.message}`);
    throw err;
  }
}

function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new CheckpointError(`${at} is not an object`);
  return value as Record<string, unknown>;
}

function finite(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new CheckpointError(`${at} is not a finite number`);
  return value;
}

function integer(value: unknown, at: string): number {
  const n = finite(value, at);
  if (!Number.isInteger(n) || n < 0) throw new CheckpointError(`${at} is not a whole number ≥ 0`);
  return n;
}

function positiveInteger(value: unknown, at: string): number {
  const n = integer(value, at);
  if (n < 1) throw new CheckpointError(`${at} is not a whole number ≥ 1`);
  return n;
}

function numbers(value: unknown, at: string, ok: (x: number) => boolean): number[] {
  if (!Array.isArray(value)) throw new CheckpointError(`${at} is not an array`);
  value.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x) || !ok(x))
      throw new CheckpointError(`${at}[${i}] is out of range`);
  });
  return value as number[];
}

function rngState(value: unknown, at: string): [number, number, number, number] {
  const words = numbers(value, at, (x) => Number.isInteger(x) && x >= 0 && x <= 0xffffffff);
  if (words.length !== 4) throw new CheckpointError(`${at} is not four 32-bit words`);
  return words as [number, number, number, number];
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], at: string): T {
  if (!allowed.includes(value as T)) throw new CheckpointError(`${at} is not one of ${allowed.join(', ')}`);
  return value as T;
}

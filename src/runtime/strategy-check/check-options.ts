/**
 * The arguments of `tcs strategy check`, checked before anything is loaded: every mistake is a
 * ConfigError (exit 2) saying what to type instead. The market options are those of `tcs simulate`.
 */
import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError } from '../config.js';
import { isoTime, wholeNumber } from '../simulate/simulate-options.js';

export interface CheckOptions {
  /** Built-in names or module paths, as STRATEGIES entries. */
  entries: string[];
  data: string | null;
  cycles: number | null;
  seed: number | null;
  from: number | null;
  to: number | null;
  symbols: string | null;
  samples: number;
  sampleSeed: number;
  tolerance: number;
  json: boolean;
}

export const DEFAULT_SAMPLES = 20;
export const DEFAULT_TOLERANCE = 1e-4;

export function parseCheckArgs(args: string[]): CheckOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        data: { type: 'string' },
        cycles: { type: 'string' },
        seed: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        symbols: { type: 'string' },
        samples: { type: 'string' },
        'sample-seed': { type: 'string' },
        tolerance: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
  } catch (err) {
    throw new ConfigError(`tcs strategy check: ${(err as Error).message}`);
  }
  const { values, positionals } = parsed;
  const entries = positionals
    .flatMap((p) => p.split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (entries.length === 0)
    throw new ConfigError(
      'tcs strategy check needs a strategy: a built-in name or a module path such as ./strategies/mine.ts',
    );
  const data = values.data?.trim() || null;
  if (data !== null && !isDirectory(data)) throw new ConfigError(`--data ${data}: no such directory`);
  const options: CheckOptions = {
    entries,
    data,
    cycles: values.cycles === undefined ? null : wholeNumber('--cycles', values.cycles, 2, 10_000_000),
    seed: values.seed === undefined ? null : wholeNumber('--seed', values.seed, 0, 2 ** 31 - 1),
    from: values.from === undefined ? null : isoTime('--from', values.from),
    to: values.to === undefined ? null : isoTime('--to', values.to),
    symbols: values.symbols?.trim() || null,
    samples: values.samples === undefined ? DEFAULT_SAMPLES : wholeNumber('--samples', values.samples, 1, 10_000),
    sampleSeed:
      values['sample-seed'] === undefined ? 1 : wholeNumber('--sample-seed', values['sample-seed'], 0, 2 ** 31 - 1),
    tolerance: values.tolerance === undefined ? DEFAULT_TOLERANCE : tolerance(values.tolerance),
    json: values.json === true,
  };
  if (data !== null && options.seed !== null)
    throw new ConfigError('--seed is for the synthetic market; a --data replay has no randomness to seed');
  if (data === null && options.cycles === null && options.to === null)
    throw new ConfigError('tcs strategy check needs --data DIR, or --cycles N (or --to ISO) for the synthetic market');
  if (options.from !== null && options.to !== null && options.to <= options.from)
    throw new ConfigError('--to must be after --from');
  return options;
}

function tolerance(text: string): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(value) || value < 0 || value >= 1)
    throw new ConfigError(`--tolerance must be a number from 0 to below 1 (e.g. 1e-4), got "${text}"`);
  return value;
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

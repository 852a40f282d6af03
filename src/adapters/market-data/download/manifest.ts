/**
 * manifest.json of a downloaded data directory (the shared format: format, exchange, timeframe,
 * instruments, from, to), plus `filledGaps`: the candles the exchange did not have (maintenance)
 * and this download filled flat, so a reader can tell them from traded minutes. Written after
 * every page through a temporary file and a rename, so a killed download leaves a whole manifest
 * that the next run continues from.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstrumentKind } from '../../../domain/market.js';

export interface ManifestInstrument {
  kind: InstrumentKind;
  lotSize: number;
  tickSize: number;
  minNotional: number;
  ccxtSymbol: string;
}

export interface FilledGap {
  /** Open time of the first filled candle and of the first real one after the gap (ISO). */
  from: string;
  to: string;
  candles: number;
}

export interface Manifest {
  format: 1;
  exchange: string;
  timeframe: string;
  instruments: Record<string, ManifestInstrument>;
  from: string;
  to: string;
  filledGaps: Record<string, FilledGap[]>;
}

/** The manifest of a directory being resumed, checked against this run; null when there is none. */
export async function readManifestFor(dir: string, run: Pick<Manifest, 'exchange' | 'timeframe' | 'from'>) {
  const path = join(dir, 'manifest.json');
  if (!existsSync(path)) return null;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(path, 'utf8')) as Manifest;
  } catch (err) {
    throw new Error(`${path}: not valid JSON (${(err as Error).message})`);
  }
  for (const key of ['exchange', 'timeframe', 'from'] as const) {
    if (manifest[key] !== run[key]) {
      throw new Error(
        `${path}: this directory holds a download with ${key} ${manifest[key]}, not ${run[key]}; ` +
          'resume with the same --exchange, --timeframe and --from, or choose another --out',
      );
    }
  }
  return { ...manifest, filledGaps: manifest.filledGaps ?? {} };
}

export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const path = join(dir, 'manifest.json');
  await writeFile(`${path}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(`${path}.tmp`, path);
}

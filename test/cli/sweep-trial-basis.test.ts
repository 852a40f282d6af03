/**
 * The fingerprint a queued trial carries (src/runtime/sweep/trial-basis.ts): it follows a replay's
 * files (paths and bytes) and the strategy modules STRATEGIES names by path, and nothing else, so a
 * copy of the same data on another machine (other times) gives the same fingerprint and one changed
 * byte does not.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { directoryFingerprint, trialBasis } from '../../src/runtime/sweep/trial-basis.js';
import type { TrialJob } from '../../src/runtime/sweep/sweep-trials.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-basis-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function dataDir(name: string, close: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'candles'), { recursive: true });
  writeFileSync(join(dir, 'candles', 'BTCUSDT.csv'), `timestamp,open,high,low,close,volume\n0,1,1,1,${close},5\n`);
  return dir;
}

const job = (dir: string | null, strategies = 'momentum_ma_crossover'): TrialJob => ({
  id: 'p1',
  env: { STRATEGIES: strategies },
  window: { dir, seed: null, cycles: null, from: null, to: null },
});

describe('trial basis', () => {
  it('is the same for the same files at another time, and changes with a byte, a name or a new file', () => {
    const dir = dataDir('a', '100');
    const first = directoryFingerprint(dir);
    utimesSync(join(dir, 'candles', 'BTCUSDT.csv'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(directoryFingerprint(dir)).toBe(first);
    expect(directoryFingerprint(dataDir('copy', '100'))).toBe(first);

    writeFileSync(join(dir, 'candles', 'BTCUSDT.csv'), 'timestamp,open,high,low,close,volume\n0,1,1,1,101,5\n');
    const changed = directoryFingerprint(dir);
    expect(changed).not.toBe(first);
    renameSync(join(dir, 'candles', 'BTCUSDT.csv'), join(dir, 'candles', 'ETHUSDT.csv'));
    expect(directoryFingerprint(dir)).not.toBe(changed);
    const renamed = directoryFingerprint(dir);
    writeFileSync(join(dir, 'manifest.json'), '{}');
    expect(directoryFingerprint(dir)).not.toBe(renamed);
  });

  it("follows a strategy module named by path, not a built-in's name, and tells synthetic from replay", () => {
    const module = join(root, 'strategy.mjs');
    writeFileSync(module, 'export default {};\n');
    const withModule = trialBasis(job(null, `momentum_ma_crossover,${module}`));
    expect(trialBasis(job(null, 'momentum_ma_crossover'))).toBe(trialBasis(job(null, 'momentum_ma_crossover')));
    writeFileSync(module, 'export default { changed: true };\n');
    expect(trialBasis(job(null, `momentum_ma_crossover,${module}`))).not.toBe(withModule);
    expect(trialBasis(job(dataDir('b', '100')))).not.toBe(trialBasis(job(null)));
  });

  it('follows a data file or folder that is a symbolic link, as the replay reads it', () => {
    const elsewhere = join(root, 'shared');
    mkdirSync(join(elsewhere, 'funding'), { recursive: true });
    writeFileSync(join(elsewhere, 'BTCUSDT.csv'), 'timestamp,open,high,low,close,volume\n0,1,1,1,100,5\n');
    writeFileSync(join(elsewhere, 'funding', 'BTCUSDT.csv'), 'timestamp,rate\n0,0.0001\n');
    const dir = join(root, 'linked');
    mkdirSync(join(dir, 'candles'), { recursive: true });
    symlinkSync(join(elsewhere, 'BTCUSDT.csv'), join(dir, 'candles', 'BTCUSDT.csv'));
    symlinkSync(join(elsewhere, 'funding'), join(dir, 'funding'));
    // The same data as a plain copy: the same fingerprint.
    const copy = join(root, 'linked-copy');
    mkdirSync(join(copy, 'candles'), { recursive: true });
    mkdirSync(join(copy, 'funding'), { recursive: true });
    writeFileSync(join(copy, 'candles', 'BTCUSDT.csv'), 'timestamp,open,high,low,close,volume\n0,1,1,1,100,5\n');
    writeFileSync(join(copy, 'funding', 'BTCUSDT.csv'), 'timestamp,rate\n0,0.0001\n');
    const first = directoryFingerprint(dir);
    expect(first).toBe(directoryFingerprint(copy));
    writeFileSync(join(elsewhere, 'BTCUSDT.csv'), 'timestamp,open,high,low,close,volume\n0,1,1,1,999,5\n');
    const candlesChanged = directoryFingerprint(dir);
    expect(candlesChanged).not.toBe(first);
    writeFileSync(join(elsewhere, 'funding', 'BTCUSDT.csv'), 'timestamp,rate\n0,0.0009\n');
    const fundingChanged = directoryFingerprint(dir);
    expect(fundingChanged).not.toBe(candlesChanged);
    // A link back up is not walked round and round.
    symlinkSync(dir, join(dir, 'candles', 'loop'));
    expect(directoryFingerprint(dir)).toBe(fundingChanged);
  });
});

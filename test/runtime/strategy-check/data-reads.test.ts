/**
 * The data directory's reads a strategy makes itself, as `tcs strategy check` watches them
 * (data-reads.ts): every way `fs` opens or reads a file by path, through the module object and
 * through ESM named bindings, inside the directory only, relative paths, and nothing once stopped.
 */
import fs, { createReadStream, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { watchDataReads } from '../../../src/runtime/strategy-check/data-reads.js';

const root = mkdtempSync(join(tmpdir(), 'tcs-data-reads-'));
const data = join(root, 'data');
mkdirSync(join(data, 'candles'), { recursive: true });
writeFileSync(join(data, 'candles', 'BTCUSDT.csv'), 'time,open\n1,2\n');
writeFileSync(join(data, 'manifest.json'), '{}');
writeFileSync(join(root, 'elsewhere.txt'), 'x');
symlinkSync(data, join(root, 'link'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('watchDataReads', () => {
  it('notes each file of the data directory read by path, however it is read, and nothing outside it', async () => {
    const watch = watchDataReads(data);
    try {
      readFileSync(join(data, 'candles', 'BTCUSDT.csv'), 'utf8'); // an ESM named binding
      fs.readFileSync(join(root, 'elsewhere.txt')); // outside: not noted
      await readFile(pathToFileURL(join(data, 'manifest.json'))); // node:fs/promises, by URL
      fs.closeSync(fs.openSync(join(root, 'link', 'candles', 'BTCUSDT.csv'), 'r')); // through a symbolic link
      await new Promise<void>((done, fail) =>
        createReadStream(join(data, 'candles', 'BTCUSDT.csv'))
          .on('close', done)
          .on('error', fail)
          .resume(),
      );
    } finally {
      expect(watch.stop()).toEqual(['candles/BTCUSDT.csv', 'manifest.json']);
    }
  });

  it('puts fs back when stopped: later reads are not noted, and the functions are the originals', () => {
    const original = fs.readFileSync;
    const watch = watchDataReads(data);
    expect(fs.readFileSync).not.toBe(original);
    expect(watch.stop()).toEqual([]);
    expect(fs.readFileSync).toBe(original);
    expect(readFileSync).toBe(original);
    const again = watchDataReads(join(root, 'nothing-here'));
    readFileSync(join(data, 'manifest.json'));
    expect(again.stop()).toEqual([]);
  });
});

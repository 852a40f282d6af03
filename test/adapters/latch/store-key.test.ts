/**
 * The latch's key of a store: one store, one key, however its URL is spelt; never a credential.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storeKey } from '../../../src/adapters/latch/store-key.js';

describe('storeKey', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('strips user and password from a Redis URL and makes its defaults explicit', () => {
    expect(storeKey('redis://user:s3cret@Cache.Example:6380/2?prefix=app:')).toBe(
      'redis://cache.example:6380/2?prefix=app%3A',
    );
    expect(storeKey('redis://:s3cret@127.0.0.1')).toBe('redis://127.0.0.1:6379/0?prefix=tcs%3A');
    expect(storeKey('redis://127.0.0.1:6379/0?prefix=tcs:')).toBe(storeKey('redis://127.0.0.1:6379'));
    expect(storeKey('rediss://127.0.0.1:6379/0')).toBe(storeKey('redis://127.0.0.1:6379/0'));
    expect(storeKey('redis://a:pw@h/1')).not.toContain('pw');
    expect(storeKey('redis://127.0.0.1/1')).not.toBe(storeKey('redis://127.0.0.1/2'));
    expect(storeKey('redis://127.0.0.1/1?prefix=a:')).not.toBe(storeKey('redis://127.0.0.1/1?prefix=b:'));
  });

  it('makes a SQLite path absolute with its directories real, before and after the file exists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-key-'));
    dirs.push(dir);
    const real = join(dir, 'real');
    mkdirSync(real);
    symlinkSync(real, join(dir, 'link'));
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      const expected = `sqlite:${join(real, 'var', 'tcs.db').replace(dir, realDir(dir))}`;
      expect(storeKey('sqlite:link/var/tcs.db')).toBe(expected); // var/ does not exist yet
      mkdirSync(join(real, 'var'));
      expect(storeKey('sqlite:./link/var/tcs.db')).toBe(expected);
      expect(storeKey(`sqlite:${join(dir, 'real', 'var', 'tcs.db')}`)).toBe(expected);
      expect(storeKey('sqlite:real/var/other.db')).not.toBe(expected);
    } finally {
      process.chdir(cwd);
    }
  });

  it('keeps a SQLite file that is a symlink under its own name (re-linking it is not a new store)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tcs-key-'));
    dirs.push(dir);
    symlinkSync(join(dir, 'a.db'), join(dir, 'current.db'));
    expect(storeKey(`sqlite:${dir}/current.db`)).toBe(`sqlite:${join(realDir(dir), 'current.db')}`);
  });

  it('refuses what is not a store URL', () => {
    expect(() => storeKey('postgres://x')).toThrow(/STORE_URL/);
  });
});

/** The temp directory's own real path (macOS and some CI put tmp behind a symlink). */
const realDir = (dir: string) => realpathSync(dir);

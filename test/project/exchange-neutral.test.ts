/**
 * Exchanges as a unit of change: outside `src/adapters/exchanges/` (one profile per exchange and the
 * registry) no code names an exchange. Every difference between exchanges is a field of the profile,
 * so adding one touches its profile, the registry, its fake dialect and its docs page, and never an
 * `if (exchange === 'okx')` in the venue, the feed, the download or the runtime. Comments may name
 * exchanges (they say where a fact came from); string literals in code may not, except in the prose
 * of help texts, which quote an id in backticks.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profiles } from '../../src/adapters/exchanges/registry.js';

const ROOT = join(import.meta.dirname, '../..');
const PROFILES = join(ROOT, 'src/adapters/exchanges');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path === PROFILES ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** The file without its comments (line and block), so only code and its strings remain. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('exchange-neutral code', () => {
  const ids = profiles().map((p) => p.id);

  it('knows the exchanges from the registry', () => {
    expect(ids).toEqual(expect.arrayContaining(['binanceusdm', 'bybit', 'okx']));
  });

  it('names no exchange id as a quoted string outside the profiles and the registry', () => {
    const pattern = new RegExp(`(['"])(${ids.join('|')})\\1`, 'i');
    const offenders = sources(join(ROOT, 'src'))
      .map((path) => ({ path: relative(ROOT, path), hit: pattern.exec(code(readFileSync(path, 'utf8')))?.[0] }))
      .filter((f) => f.hit !== undefined)
      .map((f) => `${f.path}: ${f.hit}`);
    expect(offenders).toEqual([]);
  });

  it('the check finds an id where one is written', () => {
    const pattern = new RegExp(`(['"])(${ids.join('|')})\\1`, 'i');
    expect(pattern.test(code("if (profile.id === 'okx') return; // 'bybit'"))).toBe(true);
    expect(pattern.test(code("// if (id === 'okx')\n/* 'bybit' */ const x = 1;"))).toBe(false);
  });
});

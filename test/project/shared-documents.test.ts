/**
 * Every shared document goes through the registry's typed reader and writer (src/ports/documents.ts):
 * a plain `kv.get`/`kv.set` on a registered key would read unchecked data or write a shape the reader
 * refuses, and the type checker cannot see it (the key is just a string to the port). So the source
 * is scanned for one.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DOCUMENTS } from '../../src/domain/documents/registry.js';
import * as runtimeDocuments from '../../src/domain/runtime-documents.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('shared documents', () => {
  it('are read and written only through readDocument/writeDocument', () => {
    const registered = new Set(Object.keys(DOCUMENTS));
    const constants = Object.entries(runtimeDocuments)
      .filter(([, value]) => typeof value === 'string' && registered.has(value))
      .map(([name]) => name);
    expect(constants).toHaveLength(registered.size);
    const literals = [...registered].map((key) => `'${key}'`);
    const pattern = new RegExp(`\\.(get|set)(<[^>]*>)?\\(\\s*(${[...constants, ...literals].join('|')})\\b`);
    const offenders = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'machines'))].flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => [line, i] as const)
        .filter(([line]) => pattern.test(line))
        .map(([line, i]) => `${relative(ROOT, file)}:${i + 1}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});

/**
 * The audit archive contract on the directory archive (`file:`), and what only a directory does:
 * opened read-only it never creates the directory, and query() reads a segment changed behind its
 * back afresh rather than from what it parsed before.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fileArchive } from '../../../src/adapters/archive/file-archive.js';
import { auditArchiveContract, chainOf } from '../../contracts/audit-archive.contract.js';

const segmentStarting = (dir: string, first: number): string => {
  const file = readdirSync(dir).find((f) => f.startsWith(`${String(first).padStart(12, '0')}-`));
  if (file === undefined) throw new Error(`no segment starts at ${first}`);
  return join(dir, file);
};

auditArchiveContract('file', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'tcs-file-archive-')), 'archive');
  return {
    open: async () => fileArchive(dir),
    openReadOnly: async () => fileArchive(dir, { readOnly: true }),
    deleteSegment: async (first) => rmSync(segmentStarting(dir, first)),
    async deleteEntry(seq) {
      const file = readdirSync(dir)
        .map((f) => /^(\d{12})-(\d{12})\.jsonl\.gz$/.exec(f))
        .find((m) => m !== null && Number(m[1]) <= seq && seq <= Number(m[2]));
      if (!file) throw new Error(`no segment holds ${seq}`);
      const path = join(dir, file[0]);
      const [header, ...entries] = gunzipSync(readFileSync(path)).toString('utf8').split('\n').filter(Boolean);
      const kept = entries.filter((line) => (JSON.parse(line) as { seq: number }).seq !== seq);
      writeFileSync(path, gzipSync([header, ...kept].join('\n') + '\n'));
    },
    dispose: async () => rmSync(join(dir, '..'), { recursive: true, force: true }),
  };
});

describe('fileArchive', () => {
  it('opened read-only, creates no directory and names the one that is not there', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tcs-file-archive-'));
    try {
      const dir = join(parent, 'archive');
      const reader = fileArchive(dir, { readOnly: true });
      await expect(reader.query({ limit: 5 }, 10)).rejects.toThrow(`audit archive file:${dir}: ENOENT`);
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('query reads a segment rewritten behind its back afresh, not from what it parsed before', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tcs-file-archive-'));
    try {
      const dir = join(parent, 'archive');
      const archive = fileArchive(dir);
      await archive.write(chainOf(10));
      expect((await archive.query({ limit: 3 }, 10)).map((e) => e.seq)).toEqual([10, 9, 8]);
      const path = segmentStarting(dir, 1);
      const [header, ...entries] = gunzipSync(readFileSync(path)).toString('utf8').split('\n').filter(Boolean);
      writeFileSync(path, gzipSync([header, ...entries.slice(0, 8)].join('\n') + '\n'));
      expect((await archive.query({ limit: 3 }, 10)).map((e) => e.seq)).toEqual([8, 7, 6]);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

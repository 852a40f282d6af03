/** The audit archive contract on the directory archive (`file:`). */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fileArchive } from '../../../src/adapters/archive/file-archive.js';
import { auditArchiveContract } from '../../contracts/audit-archive.contract.js';

const segmentStarting = (dir: string, first: number): string => {
  const file = readdirSync(dir).find((f) => f.startsWith(`${String(first).padStart(12, '0')}-`));
  if (file === undefined) throw new Error(`no segment starts at ${first}`);
  return join(dir, file);
};

auditArchiveContract('file', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'tcs-file-archive-')), 'archive');
  return {
    open: async () => fileArchive(dir),
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

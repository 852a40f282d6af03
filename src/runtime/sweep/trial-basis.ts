/**
 * What a queued trial's result rests on besides its spec. A queue keeps the result of a trial that
 * nobody read (its sweep was stopped), and the same spec run again picks it up. That result must be
 * thrown away when what it was computed from changed, and a worker must not compute it from other
 * inputs than the sweep's:
 * - the data: a replay directory's files, path and bytes (not their times: a copy on another
 *   machine is the same data), and the strategy modules STRATEGIES names by path;
 * - the code: the files of the running program (dist/cli/ when run as `tcs`). Workers of other
 *   code take trials from another queue (queue-coordinator.ts), so they never meet.
 * A strategy module's own imports and the packages in node_modules are not covered (said in --help).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isModulePath } from '../../strategies/registry.js';
import type { TrialJob } from './sweep-trials.js';

/**
 * Files of a directory tree, sorted by relative path (so the fingerprint never depends on listing
 * order). Symbolic links are followed, to files and to folders, as the replay's reads follow them: a
 * data directory of links into a shared store is fingerprinted by the files it names. A folder
 * already on the way down (a link back up) is not entered again.
 */
function filesUnder(dir: string): string[] {
  const files: string[] = [];
  const walk = (folder: string, above: ReadonlySet<string>) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const kind = entry.isSymbolicLink() ? statSync(path, { throwIfNoEntry: false }) : entry;
      if (kind?.isFile()) files.push(path);
      else if (kind?.isDirectory()) {
        const real = realpathSync(path);
        if (!above.has(real)) walk(path, new Set(above).add(real));
      }
    }
  };
  walk(dir, new Set([realpathSync(dir)]));
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The identity, size and change time of a tree's files: when they are unchanged, the fingerprint is
 * too. The change time (ctime), not the modification time: a copy that keeps the times (`cp -p`) or
 * a `touch -d` moves the ctime all the same.
 */
function listingOf(dir: string, files: readonly string[]): { text: string; newest: number } {
  let newest = 0;
  const text = files
    .map((file) => {
      const stat = statSync(file);
      newest = Math.max(newest, stat.ctimeMs);
      return `${relative(dir, file)}\0${stat.ino}\0${stat.size}\0${stat.ctimeMs}`;
    })
    .join('\n');
  return { text, newest };
}

/**
 * A file changed this recently may change again within the same tick of the file clock without its
 * listing showing it (git's "racy" files): such a fingerprint is not kept, and is hashed again next time.
 */
const RACY_MS = 2_000;

const known = new Map<string, { listing: string; fingerprint: string }>();

/** sha256 over the relative path and the bytes of every file under `dir`. */
export function directoryFingerprint(dir: string): string {
  const files = filesUnder(dir);
  const { text: listing, newest } = listingOf(dir, files);
  const cached = known.get(dir);
  if (cached?.listing === listing) return cached.fingerprint;
  const racy = Date.now() - newest < RACY_MS;
  const hash = createHash('sha256');
  for (const file of files)
    hash
      .update(`${relative(dir, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  const fingerprint = hash.digest('hex');
  if (racy) known.delete(dir);
  else known.set(dir, { listing, fingerprint });
  return fingerprint;
}

/**
 * The fingerprint of a trial's inputs beyond its spec: its replay directory and the strategy modules
 * its STRATEGIES names by path (resolved from the working directory, as tcs simulate does).
 */
export function trialBasis(job: TrialJob): string {
  const hash = createHash('sha256');
  hash.update(`data\0${job.window.dir === null ? 'synthetic' : directoryFingerprint(job.window.dir)}\0`);
  for (const entry of (job.env.STRATEGIES ?? '').split(',').map((s) => s.trim())) {
    if (!isModulePath(entry)) continue;
    const file = resolve(entry);
    hash.update(`strategy\0${entry}\0`).update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

let code: string | undefined;

/** sha256 of the running program's files (this module's directory: dist/cli/ for `tcs`). */
export function codeFingerprint(): string {
  if (code !== undefined) return code;
  const dir = dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha256');
  for (const file of filesUnder(dir).filter((f) => /\.(m?js|ts)$/.test(f)))
    hash
      .update(`${relative(dir, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  return (code = hash.digest('hex'));
}

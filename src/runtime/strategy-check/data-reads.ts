/**
 * The data directory's files a strategy opens itself while it is checked. The replay a strategy is
 * handed can be cut, but the files on disk cannot: a strategy that reads them (with `fs`, at import
 * or while it analyses) has every bar within its reach, the future included, and its answers agree
 * with the full run's at every cut. So the check watches for it: while the strategy is loaded and
 * replayed (never while the market is recorded, which is the feed's own reading), every way `fs`
 * opens or reads a file by its path is wrapped, and a path inside the data directory is noted.
 * Node's ESM bindings of `node:fs` and `node:fs/promises` follow (syncBuiltinESMExports), so a
 * strategy's `import { readFileSync } from 'node:fs'` is seen as well as `fs.readFileSync`.
 * A file descriptor opened before the watch, or a native addon, is not seen (the docs' Limits say so).
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

type Target = Record<string, unknown>;

/** Functions whose first argument is the path of a file they open or read. */
const WATCHED: ReadonlyArray<readonly [Target, string]> = [
  [fs as unknown as Target, 'openSync'],
  [fs as unknown as Target, 'open'],
  [fs as unknown as Target, 'readFileSync'],
  [fs as unknown as Target, 'readFile'],
  [fs as unknown as Target, 'createReadStream'],
  [fs.promises as unknown as Target, 'open'],
  [fs.promises as unknown as Target, 'readFile'],
];

export interface DataReads {
  /** Stops watching; the files read so far, relative to the data directory, in the order first read. */
  stop(): string[];
}

export function watchDataReads(dir: string): DataReads {
  const roots = [resolve(dir)];
  try {
    const real = fs.realpathSync(dir);
    if (real !== roots[0]) roots.push(real);
  } catch {
    // A directory that cannot be resolved: its path as given is still watched.
  }
  const seen = new Set<string>();
  const note = (path: unknown) => {
    const file = pathOf(path);
    if (file === null) return;
    for (const root of roots)
      if (file.startsWith(root + sep)) {
        seen.add(relative(root, file).split(sep).join('/'));
        return;
      }
  };
  const originals = WATCHED.map(([target, name]) => {
    const original = target[name] as (...args: unknown[]) => unknown;
    target[name] = function watched(this: unknown, ...args: unknown[]) {
      note(args[0]);
      return original.apply(this, args);
    };
    return [target, name, original] as const;
  });
  syncBuiltinESMExports();
  return {
    stop() {
      for (const [target, name, original] of originals) target[name] = original;
      syncBuiltinESMExports();
      return [...seen];
    },
  };
}

/** A path argument as an absolute path (symbolic links resolved where it exists); null for a descriptor. */
function pathOf(path: unknown): string | null {
  let text: string;
  if (typeof path === 'string') text = path;
  else if (path instanceof URL) text = path.protocol === 'file:' ? fileURLToPath(path) : '';
  else if (Buffer.isBuffer(path)) text = path.toString();
  else return null;
  if (text === '') return null;
  const absolute = resolve(text);
  try {
    return fs.realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** Runs `work` with the data directory watched (null: nothing to watch); its value and the files read. */
export async function whileWatched<T>(
  dir: string | null,
  work: () => Promise<T>,
): Promise<{ value: T; read: string[] }> {
  if (dir === null) return { value: await work(), read: [] };
  const watch = watchDataReads(dir);
  let value: T;
  try {
    value = await work();
  } catch (err) {
    watch.stop();
    throw err;
  }
  return { value, read: watch.stop() };
}

/**
 * The key under which the trading latch keeps what it remembers of one store: the store's URL,
 * canonical and without credentials, so that the same store is always the same key and a key can be
 * printed, logged and written to the latch file without a password in it.
 *  - `sqlite:<path>` → `sqlite:` + the absolute path, its directory's symlinks resolved (the deepest
 *    existing directory's real path plus the rest: a first start has no file, maybe no var/ yet), so
 *    `sqlite:var/tcs.db`, `sqlite:./var/tcs.db` and an absolute path to it are one store. The file's
 *    own name is kept as written, even when it is a symlink: a link pointed at another file (a restore
 *    by re-linking) is the same key, judged against what was remembered there, never a new store.
 *  - `redis://` and `rediss://` → `redis://host:port/db?prefix=…`: no user or password, host in lower
 *    case, the defaults made explicit (port 6379, db 0, prefix `tcs:`), the transport not part of it
 *    (TLS or not, it is the same data).
 * The key is textual: two names of one server (`localhost` and `127.0.0.1`) are two keys, so the
 * second is judged as a first start there. Use one spelling per store.
 */
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DEFAULT_PREFIX } from '../redis/keys.js';

export function storeKey(url: string): string {
  if (url.startsWith('sqlite:')) {
    const path = resolve(url.slice('sqlite:'.length));
    return `sqlite:${join(realPath(dirname(path)), basename(path))}`;
  }
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    const parsed = new URL(url);
    const port = parsed.port || '6379';
    const db = Number.parseInt(parsed.pathname.replace(/^\//, '') || '0', 10);
    const prefix = parsed.searchParams.get('prefix') || DEFAULT_PREFIX;
    return `redis://${parsed.hostname.toLowerCase()}:${port}/${Number.isNaN(db) ? 0 : db}?prefix=${encodeURIComponent(prefix)}`;
  }
  throw new Error('STORE_URL must be sqlite:<path> or redis://host:port/db');
}

/** The real path of `path`, resolving the deepest part of it that exists. */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    const parent = dirname(path);
    return parent === path ? path : join(realPath(parent), basename(path));
  }
}

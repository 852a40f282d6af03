/**
 * Opens the store named by STORE_URL: `sqlite:<path>` (the embedded default, a file under ./var
 * that both processes share) or `redis://[:password@]host:port/db[?prefix=tcs:]`. Each adapter is
 * imported only when its scheme is asked for: a process on SQLite never loads ioredis (a tenth of a
 * second of CPU at every start of every `tcs` process), nor one on Redis better-sqlite3.
 */
import type { Store } from '../ports/store.js';

export interface OpenStoreOptions {
  /** SQLite: refuse to create a missing file (a process that knew a store there must not start a new one). */
  mustExist?: boolean;
  /** Deadline of every store command in ms (STORE_TIMEOUT_MS); default DEFAULT_STORE_TIMEOUT_MS. */
  timeoutMs?: number;
}

/** Opens the store; it never creates a control record (see ControlStore.initialise). */
export async function openStore(url: string, options: OpenStoreOptions = {}): Promise<Store> {
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length);
    if (path === '') throw new Error('STORE_URL sqlite: needs a file path, e.g. sqlite:var/tcs.db');
    const { openSqliteStore } = await import('./sqlite/sqlite-store.js');
    return openSqliteStore({ path, mustExist: options.mustExist === true, ...timeout });
  }
  if (url.startsWith('redis://') || url.startsWith('rediss://')) {
    const parsed = new URL(url);
    const prefix = parsed.searchParams.get('prefix') ?? undefined;
    parsed.search = '';
    const { openRedisStore } = await import('./redis/redis-store.js');
    return openRedisStore({ url: parsed.toString(), ...(prefix ? { prefix } : {}), ...timeout });
  }
  throw new Error('STORE_URL must be sqlite:<path> or redis://host:port/db');
}

/**
 * `tcs audit archive` and the archive half of `tcs audit verify` (issue 35): AUDIT_RETAIN and
 * AUDIT_ARCHIVE_URL read and opened here. Archiving runs as its own command (a cron job or systemd
 * timer next to the service), never on the trading cycle's path.
 */
import { resolve } from 'node:path';
import { fileArchive } from '../adapters/archive/file-archive.js';
import { describePostgresUrl, postgresArchive } from '../adapters/archive/postgres-archive.js';
import { openStore } from '../adapters/open-store.js';
import { archiveAndTrim, parseRetention } from '../application/audit-archiver.js';
import type { Retention } from '../application/audit-archiver.js';
import type { AuditArchive } from '../ports/audit-archive.js';
import type { EventStore } from '../ports/event-store.js';
import { ConfigError } from './config-error.js';
import { readStoreUrl } from './config.js';

export const DEFAULT_AUDIT_RETAIN = '7d';
export const DEFAULT_AUDIT_ARCHIVE_URL = 'file:var/audit-archive';

export function readRetention(env: NodeJS.ProcessEnv): Retention {
  try {
    return parseRetention(env.AUDIT_RETAIN?.trim() || DEFAULT_AUDIT_RETAIN);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

/** The archive AUDIT_ARCHIVE_URL names, chosen by its scheme; the caller closes it. */
export function openArchive(env: NodeJS.ProcessEnv, { readOnly = false }: { readOnly?: boolean } = {}): AuditArchive {
  const url = env.AUDIT_ARCHIVE_URL?.trim() || DEFAULT_AUDIT_ARCHIVE_URL;
  if (url.startsWith('file:') && url.length > 'file:'.length)
    return fileArchive(resolve(url.slice('file:'.length)), { readOnly });
  if (/^postgres(ql)?:\/\/[^/]/.test(url)) return postgresArchive(url, { readOnly });
  throw new ConfigError(
    `AUDIT_ARCHIVE_URL must be file:<directory> or postgres://user[:password]@host[:port]/database; got ${describeArchiveUrl(url)}`,
  );
}

/**
 * The archive as the API process reads it (/reports/decisions below the store's floor): read-only, and
 * a URL it cannot use is a problem to log, not a reason to stay down: the API is the kill switch's
 * path, and the store's window is served without the archive. The caller closes it.
 */
export function openArchiveForReading(env: NodeJS.ProcessEnv): {
  archive: AuditArchive | null;
  problem: string | null;
} {
  try {
    return { archive: openArchive(env, { readOnly: true }), problem: null };
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { archive: null, problem: err.message };
  }
}

/** A URL as it may be printed: a password never is. */
function describeArchiveUrl(url: string): string {
  return /^[a-z]+:\/\//i.test(url) ? describePostgresUrl(url) : JSON.stringify(url);
}

/**
 * One archived entry's hash, the archive opened for it and closed again (asked once, when a process
 * starts). Read-only: the archive belongs to `tcs audit archive`, which may run as another user, and
 * the trading process creating its directory (mode 0700, as itself) or its table could lock that job
 * out. An archive never written to holds no entry (null), as the empty one it used to create did: a
 * file: directory that is not there, a database without the archive's table.
 */
export async function archivedHash(env: NodeJS.ProcessEnv, seq: number): Promise<string | null> {
  const archive = openArchive(env, { readOnly: true });
  try {
    return await archive.hashAt(seq);
  } catch (err) {
    const { code, path } = err as { code?: unknown; path?: unknown };
    // The archive's own directory missing (a segment that vanishes while read is still an error),
    // or PostgreSQL's undefined_table.
    if ((code === 'ENOENT' && archive.description === `file:${String(path)}`) || code === '42P01') return null;
    throw err;
  } finally {
    await archive.close();
  }
}

/** Archives what is older than the window, then trims it; prints one line per segment. */
export async function archiveAuditTrail(env: NodeJS.ProcessEnv, nowMs = Date.now()): Promise<number> {
  const retention = readRetention(env);
  const archive = openArchive(env);
  const store = await openStore(readStoreUrl(env));
  try {
    const run = await archiveAndTrim(store.events, archive, retention, nowMs, (first, last) =>
      console.log(`archived entries ${first}–${last} to ${archive.description}`),
    );
    console.log(
      `audit archive: ${run.archived} entries archived, ${run.trimmed} trimmed; hot store from entry ${run.floor + 1}`,
    );
    return 0;
  } catch (err) {
    console.error(`audit archive failed: ${(err as Error).message}`);
    return 1;
  } finally {
    await archive.close();
    await store.close();
  }
}

/**
 * The archive verified (incrementally unless `full`) and the hot store's floor held against it: the hot window
 * must resume exactly where the archive holds it. A problem as a sentence, or null.
 */
export async function archiveProblem(
  events: EventStore,
  archive: AuditArchive,
  { full = false }: { full?: boolean } = {},
): Promise<string | null> {
  const floor = await events.floor();
  const verified = await archive.verify({ incremental: !full });
  if (!verified.ok) return `archive BROKEN at entry ${verified.firstBad.seq}: ${verified.firstBad.reason}`;
  if (floor.seq === 0) return null;
  if (verified.head.seq < floor.seq)
    return `archive ends at entry ${verified.head.seq} but the hot store was trimmed through ${floor.seq}: entries ${verified.head.seq + 1}–${floor.seq} are missing (the archive was truncated)`;
  if ((await archive.hashAt(floor.seq)) !== floor.hash)
    return `the archive's entry ${floor.seq} is not the one the hot store was trimmed after`;
  return null;
}

/**
 * The latch as a JSON file (default var/trading-latch.json, TRADING_LATCH_PATH for containers, where
 * it belongs on a volume): `{"version":2,"stores":{"<store key>":{storeId, epoch, state, …}}}`, one
 * entry per store (src/adapters/latch/store-key.ts), each moved only by the process on that store.
 * Saved atomically and durably: written to a temporary file, fsync'd, renamed over the old one and
 * the directory fsync'd, so a crash leaves either the old or the new latch, never half of one. Mode
 * 0600 in a 0700 directory. A file that exists but does not parse is an error, never "no latch":
 * forgetting the stores it knew is exactly what the latch prevents.
 *
 * A file of the old format (one store's latch at the top, before latches were kept per store) does
 * not say which store it was written for, so it is not dropped and not guessed at: it applies to the
 * first store opened with it, fail-closed. The trading process (`claimLegacy`) then rewrites the
 * file with that latch under that store's key, and it stays that store's; readers that do not write
 * (`tcs audit verify`, the API) hold it against whatever store they were given.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { SYSTEM_STATES } from '../../domain/control.js';
import { LatchUnwritableError } from '../../ports/latch.js';
import type { LatchFile, TradingLatch } from '../../ports/latch.js';

export interface LatchFileOptions {
  /** Attach an old-format latch to this key on first load, and write it so (the trading process). */
  claimLegacy?: boolean;
  /** Told when an old-format latch was attached to this key (to say so in the log). */
  onLegacyClaimed?(latch: TradingLatch): void;
}

/** The whole file: every store's latch, or the one latch of the old format. */
type Contents = { stores: Record<string, TradingLatch> } | { legacy: TradingLatch };

export function latchFile(path: string, key: string, options: LatchFileOptions = {}): LatchFile {
  const read = (): Contents | null => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    return parseContents(path, text);
  };
  /** Every store's latch, an old-format one counted as this key's. */
  const stores = (contents: Contents | null): Record<string, TradingLatch> =>
    contents === null ? {} : 'legacy' in contents ? { [key]: contents.legacy } : { ...contents.stores };

  return {
    path,
    key,
    async load() {
      const contents = read();
      if (contents !== null && 'legacy' in contents && options.claimLegacy) {
        writeDurably(path, stores(contents));
        options.onLegacyClaimed?.(contents.legacy);
      }
      return stores(contents)[key] ?? null;
    },
    async save(given) {
      let latch = given;
      let all: Record<string, TradingLatch> = {};
      try {
        all = stores(read());
      } catch {
        // An unreadable file was refused at load; a save writes what this process knows.
      }
      // Never lower what is on disk for the same store (a process that lost the race for the lease
      // may still save what it read): the latch only moves forward, or to an adopted store.
      const onDisk = all[key];
      if (onDisk && onDisk.storeId === latch.storeId && onDisk.epoch > latch.epoch) return;
      if (onDisk?.storeId === latch.storeId && (onDisk.auditSeq ?? 0) > (latch.auditSeq ?? 0)) {
        // The head never goes back either (a slower save of an older head must not win).
        latch = { ...latch, auditSeq: onDisk.auditSeq!, auditHash: onDisk.auditHash! };
      }
      try {
        writeDurably(path, { ...all, [key]: latch });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'error';
        throw new LatchUnwritableError(
          `the trading latch ${path} cannot be written (${code}: ${(err as Error).message}); free the disk or make it writable`,
        );
      }
    },
  };
}

function writeDurably(path: string, stores: Record<string, TradingLatch>): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, `${JSON.stringify({ version: 2, stores })}\n`);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, path);
  } catch (err) {
    // A half-written temporary (a full disk) would only hold on to the space that is missing.
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
    rmSync(temporary, { force: true });
    throw err;
  }
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

function parseContents(path: string, text: string): Contents {
  const bad = (why: string) =>
    new Error(
      `the trading latch ${path} is unreadable (${why}); fix it, or remove it deliberately to forget the stores it knew`,
    );
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  if (typeof doc !== 'object' || doc === null) throw bad('not an object');
  const d = doc as { version?: unknown; stores?: unknown };
  if (d.version === undefined) return { legacy: parseLatch(doc, bad) };
  if (d.version !== 2) throw bad(`version ${String(d.version)}, which this release does not read`);
  if (typeof d.stores !== 'object' || d.stores === null || Array.isArray(d.stores)) throw bad('no stores');
  const stores: Record<string, TradingLatch> = {};
  for (const [key, entry] of Object.entries(d.stores)) {
    stores[key] = parseLatch(entry, (why) => bad(`${why} for ${key}`));
  }
  return { stores };
}

function parseLatch(doc: unknown, bad: (why: string) => Error): TradingLatch {
  const d = (doc ?? {}) as Partial<TradingLatch>;
  if (typeof d.storeId !== 'string' || d.storeId === '') throw bad('no storeId');
  if (typeof d.epoch !== 'number' || !Number.isInteger(d.epoch) || d.epoch < 0) throw bad('no epoch');
  if (!(SYSTEM_STATES as readonly unknown[]).includes(d.state)) throw bad('no state');
  const head =
    d.auditSeq === undefined && d.auditHash === undefined
      ? {}
      : typeof d.auditSeq === 'number' &&
          Number.isInteger(d.auditSeq) &&
          d.auditSeq >= 0 &&
          typeof d.auditHash === 'string' &&
          /^[0-9a-f]{64}$/.test(d.auditHash)
        ? { auditSeq: d.auditSeq, auditHash: d.auditHash }
        : null;
  if (head === null) throw bad('a malformed audit head');
  return {
    storeId: d.storeId,
    epoch: d.epoch,
    state: d.state as TradingLatch['state'],
    ...head,
    updatedAt: String(d.updatedAt),
  };
}

/**
 * The latch as a JSON file (default var/trading-latch.json, TRADING_LATCH_PATH for containers, where
 * it belongs on a volume). Saved atomically and durably: written to a temporary file, fsync'd,
 * renamed over the old one and the directory fsync'd, so a crash leaves either the old or the new
 * latch, never half of one. Mode 0600 in a 0700 directory. A file that exists but does not parse is
 * an error, never "no latch": forgetting the store it knew is exactly what the latch prevents.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { SYSTEM_STATES } from '../../domain/control.js';
import type { LatchFile, TradingLatch } from '../../ports/latch.js';

export function latchFile(path: string): LatchFile {
  return {
    path,
    async load() {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
      return parseLatch(path, text);
    },
    async save(given) {
      let latch = given;
      // Never lower what is on disk for the same store (a process that lost the race for the lease
      // may still save what it read): the latch only moves forward, or to an adopted store.
      const onDisk = await this.load().catch(() => null);
      if (onDisk && onDisk.storeId === latch.storeId && onDisk.epoch > latch.epoch) return;
      if (onDisk?.storeId === latch.storeId && (onDisk.auditSeq ?? 0) > (latch.auditSeq ?? 0)) {
        // The head never goes back either (a slower save of an older head must not win).
        latch = { ...latch, auditSeq: onDisk.auditSeq!, auditHash: onDisk.auditHash! };
      }
      const dir = dirname(path);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.tmp`;
      const fd = openSync(temporary, 'w', 0o600);
      try {
        writeSync(fd, `${JSON.stringify(latch)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, path);
      const dirFd = openSync(dir, 'r');
      try {
        fsyncSync(dirFd);
      } finally {
        closeSync(dirFd);
      }
    },
  };
}

function parseLatch(path: string, text: string): TradingLatch {
  const bad = (why: string) =>
    new Error(
      `the trading latch ${path} is unreadable (${why}); fix it, or remove it deliberately to forget the store`,
    );
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  const d = doc as Partial<TradingLatch>;
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

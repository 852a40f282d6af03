/**
 * The audit archive as a directory (`AUDIT_ARCHIVE_URL=file:DIR`, the embedded default): one gzip'd
 * JSON-lines file per segment, named by its seq range (`000000000001-000000001000.jsonl.gz`), its
 * first line a header {first, last, prev_hash, last_hash}, then one entry per line. Written as a
 * temporary file, fsync'd, renamed into place and the directory fsync'd, so a crash leaves a whole
 * segment or none (a stray `.tmp` is removed by the next writer). `verified.json` remembers the last
 * segment verify() re-hashed and every verified file's sha256, so the next verification only
 * re-hashes what came after it or what changed since (an entry deleted from inside a segment).
 * query() reads segments newest first by their names' seq ranges, and keeps the last few it parsed
 * (a console paging down reads the same segment page after page). Read-only (the API process), it
 * creates no directory, writes no file, and a directory that is not there is an error.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { canonicalJson } from '../../domain/canonical-json.js';
import { ChainWalk, NO_FLOOR } from '../../domain/chain-walk.js';
import type { ChainFloor } from '../../domain/chain-walk.js';
import type { ArchiveVerification, AuditArchive } from '../../ports/audit-archive.js';
import type { AuditEvent } from '../../ports/event-store.js';
import { matchesQuery } from './matches-query.js';
import { nextSegment } from './next-segment.js';

const NAME = /^(\d{12})-(\d{12})\.jsonl\.gz$/;
const VERIFIED = 'verified.json';

interface SegmentName {
  first: number;
  last: number;
  file: string;
}

interface Header {
  first: number;
  last: number;
  prev_hash: string;
  last_hash: string;
}

/** The last entry verify() re-hashed, and each verified segment file's sha256 (absent in older marks). */
interface VerifiedMark extends ChainFloor {
  digests?: Record<string, string>;
}

const digestOf = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

const pad = (seq: number): string => String(seq).padStart(12, '0');

/** Parsed segments query() keeps: a page rarely spans more than two, and each holds ~1,000 entries. */
const CACHED_SEGMENTS = 3;

export interface FileArchiveOptions {
  /** Create nothing, write nothing (the API process reads the archive `tcs audit archive` writes). */
  readOnly?: boolean;
}

export function fileArchive(dir: string, { readOnly = false }: FileArchiveOptions = {}): AuditArchive {
  const description = `file:${dir}`;
  if (!readOnly) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const segments = (): SegmentName[] =>
    readdirSync(dir)
      .map((file) => {
        const m = NAME.exec(file);
        return m ? { first: Number(m[1]), last: Number(m[2]), file } : null;
      })
      .filter((s): s is SegmentName => s !== null)
      .sort((a, b) => a.first - b.first);
  const load = (segment: SegmentName): { header: Header; entries: AuditEvent[] } => {
    const lines = gunzipSync(readFileSync(join(dir, segment.file)))
      .toString('utf8')
      .split('\n')
      .filter(Boolean);
    const [first, ...rest] = lines;
    if (first === undefined) throw new Error(`archive segment ${segment.file} is empty`);
    return { header: JSON.parse(first) as Header, entries: rest.map((line) => JSON.parse(line) as AuditEvent) };
  };
  // Keyed by name, size and mtime: a segment is never rewritten in place by the archiver, and one
  // changed behind its back (by hand) is read again rather than served stale.
  const parsed = new Map<string, { stamp: string; entries: AuditEvent[] }>();
  const loadCached = (segment: SegmentName): AuditEvent[] => {
    const { size, mtimeMs } = statSync(join(dir, segment.file));
    const stamp = `${size}:${mtimeMs}`;
    const hit = parsed.get(segment.file);
    parsed.delete(segment.file);
    const entries = hit?.stamp === stamp ? hit.entries : load(segment).entries;
    parsed.set(segment.file, { stamp, entries });
    for (const oldest of parsed.keys()) if (parsed.size > CACHED_SEGMENTS) parsed.delete(oldest);
    return entries;
  };
  const head = (): ChainFloor => {
    const last = segments().at(-1);
    if (last === undefined) return NO_FLOOR;
    const { header } = load(last);
    return { seq: header.last, hash: header.last_hash };
  };
  const writeDurably = (file: string, data: Buffer | string): void => {
    const tmp = join(dir, `${file}.tmp`);
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(dir, file));
    const dirFd = openSync(dir, 'r');
    try {
      fsyncSync(dirFd);
    } finally {
      closeSync(dirFd);
    }
  };
  const removeStrays = (): void => {
    for (const file of readdirSync(dir)) if (file.endsWith('.tmp')) rmSync(join(dir, file), { force: true });
  };
  const verifiedMark = (): VerifiedMark | null => {
    try {
      return JSON.parse(readFileSync(join(dir, VERIFIED), 'utf8')) as VerifiedMark;
    } catch {
      return null;
    }
  };

  /** Entries it holds, offered again, must be the same entries: another hash under a seq is an error. */
  const checkHeld = (offered: readonly AuditEvent[]): void => {
    if (offered.length === 0) return;
    const wanted = new Map(offered.map((e) => [e.seq, e.hash]));
    const first = Math.min(...wanted.keys());
    const last = Math.max(...wanted.keys());
    for (const segment of segments())
      if (segment.last >= first && segment.first <= last)
        for (const held of load(segment).entries) {
          const hash = wanted.get(held.seq);
          if (hash !== undefined && hash !== held.hash)
            throw new Error(`archive: entry ${held.seq} is already archived with another hash; nothing written`);
        }
  };

  return {
    description,
    head: async () => head(),
    async write(given) {
      if (readOnly) throw new Error(`audit archive ${description} is opened read-only`);
      removeStrays();
      const at = head();
      checkHeld(given.filter((e) => e.seq <= at.seq));
      const segment = nextSegment(given, at);
      if (segment === null) return;
      const { entries, first, last } = segment;
      const header: Header = { first: first.seq, last: last.seq, prev_hash: first.prev_hash, last_hash: last.hash };
      const text = [canonicalJson(header), ...entries.map((e) => canonicalJson(e))].join('\n') + '\n';
      writeDurably(`${pad(first.seq)}-${pad(last.seq)}.jsonl.gz`, gzipSync(text));
    },
    async hashAt(seq) {
      const segment = segments().find((s) => s.first <= seq && seq <= s.last);
      if (segment === undefined) return null;
      return load(segment).entries.find((e) => e.seq === seq)?.hash ?? null;
    },
    async read(from, to) {
      const out: AuditEvent[] = [];
      for (const segment of segments())
        if (segment.last >= from && segment.first <= to)
          out.push(...load(segment).entries.filter((e) => e.seq >= from && e.seq <= to));
      return out;
    },
    async query(q, through) {
      const upper = Math.min(through, (q.before ?? Number.POSITIVE_INFINITY) - 1);
      const out: AuditEvent[] = [];
      let all: SegmentName[];
      try {
        all = segments();
      } catch (err) {
        throw new Error(`audit archive ${description}: ${(err as Error).message}`, { cause: err });
      }
      for (const segment of all.reverse()) {
        if (segment.first > upper) continue;
        const entries = loadCached(segment);
        for (let i = entries.length - 1; i >= 0; i--) {
          const entry = entries[i]!;
          if (entry.seq > upper) continue;
          // Seq order is time order (the store never stamps an entry earlier than the one before).
          if (q.since !== undefined && entry.at < q.since) return out;
          if (matchesQuery(entry, q) && out.push(entry) >= q.limit) return out;
        }
      }
      return out;
    },
    async verify(options = {}) {
      const all = segments();
      const mark = options.incremental ? verifiedMark() : null;
      let expected = 1;
      let prev: ChainFloor = NO_FLOOR;
      let checked = 0;
      const digests: Record<string, string> = {};
      for (const [i, segment] of all.entries()) {
        if (segment.first !== expected) {
          const which =
            segment.first > expected ? `entries ${expected}–${segment.first - 1} are missing` : 'segments overlap';
          return { ok: false, firstBad: { seq: expected, reason: `${which} in the archive (a segment deleted?)` } };
        }
        expected = segment.last + 1;
        const digest = digestOf(join(dir, segment.file));
        digests[segment.file] = digest;
        // Re-hashed before and byte for byte the same since: its name in sequence and its digest are
        // enough (a file is hashed far faster than its entries are re-chained). The mark names its
        // last entry's hash. A changed file (an entry deleted or edited inside it) is re-chained to
        // name the entry.
        if (mark !== null && segment.last <= mark.seq && mark.digests?.[segment.file] === digest) {
          if (segment.last === mark.seq) prev = mark;
          continue;
        }
        const before = all[i - 1];
        if (before !== undefined && prev.seq !== before.last)
          prev = { seq: before.last, hash: load(before).header.last_hash };
        const problem = checkSegment(segment, load, prev);
        if (problem !== null) return { ok: false, firstBad: problem };
        prev = { seq: segment.last, hash: load(segment).header.last_hash };
        checked += 1;
      }
      if (mark !== null && mark.seq >= expected)
        return {
          ok: false,
          firstBad: { seq: expected, reason: `the archive ends before entry ${mark.seq}, verified before (truncated)` },
        };
      if (prev.seq > 0 && !readOnly)
        writeDurably(VERIFIED, JSON.stringify({ seq: prev.seq, hash: prev.hash, digests }));
      const result: ArchiveVerification = {
        ok: true,
        head: { seq: prev.seq, hash: prev.hash },
        segments: all.length,
        checked,
      };
      return result;
    },
    close: async () => {},
  };
}

/** One segment re-hashed from the entry it links to; the first problem, or null. */
function checkSegment(
  segment: SegmentName,
  load: (s: SegmentName) => { header: Header; entries: AuditEvent[] },
  prev: ChainFloor,
): { seq: number; reason: string } | null {
  let loaded;
  try {
    loaded = load(segment);
  } catch (err) {
    return { seq: segment.first, reason: `segment ${segment.file} is unreadable: ${(err as Error).message}` };
  }
  const { header, entries } = loaded;
  if (header.first !== segment.first || header.last !== segment.last || header.prev_hash !== prev.hash)
    return { seq: segment.first, reason: `segment ${segment.file} does not link to entry ${prev.seq}` };
  const walk = new ChainWalk({ seq: header.last, hash: header.last_hash, at: null }, prev);
  for (const entry of entries) {
    const problem = walk.next(entry);
    if (problem) return problem;
  }
  return walk.end();
}

/**
 * Plumbing of the audit retention benchmarks (issue 35): sampling a hot store's size (Redis
 * `used_memory` of a server of the bench's own, or a SQLite file and its -wal), judging how flat the
 * samples stay once the window is full, running `tcs` commands as cron would, and reading an
 * archive's size. Nothing here measures on its own.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { openStore } from '../src/adapters/open-store.js';
import type { TestDatabase } from '../test/support/postgres.js';
import { REPO_ROOT } from './support.js';

export interface StoreSample {
  /** ms since the sampler opened (monotonic). */
  t: number;
  /** Newest seq, the floor (last trimmed; 0 before any trim) and the entries the store holds. */
  head: number;
  floor: number;
  count: number;
  /** The newest decision's cycle number (0 before the first). */
  cycle: number;
  /** Redis INFO memory used_memory (the bench's own server), bytes. */
  usedMemory?: number;
  /** SQLite: the main file plus its -wal, and each alone, bytes. */
  fileBytes?: number;
  dbBytes?: number;
  walBytes?: number;
}

export interface StoreSampler {
  sample(): Promise<StoreSample>;
  close(): Promise<void>;
}

/** `redisPort`: the bench's own redis-server (its used_memory is the store's alone); `sqlitePath`: the store's file. */
export async function openSampler(url: string, redisPort: number | null, sqlitePath: string): Promise<StoreSampler> {
  const store = await openStore(url);
  const info = redisPort === null ? null : new Redis({ port: redisPort, host: '127.0.0.1', lazyConnect: true });
  await info?.connect();
  const t0 = performance.now();
  const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);
  return {
    async sample() {
      const [newest] = await store.events.query({ limit: 1 });
      const [decision] = await store.events.query({ limit: 1, kind: 'decision' });
      const floor = await store.events.floor();
      const count = await store.events.count();
      const s: StoreSample = {
        t: performance.now() - t0,
        head: newest?.seq ?? 0,
        floor: floor.seq,
        count,
        cycle: Number(decision?.body.cycle ?? 0),
      };
      if (info) {
        const text = await info.info('memory');
        s.usedMemory = Number(/used_memory:(\d+)/.exec(text)?.[1]);
      } else {
        s.dbBytes = size(sqlitePath);
        s.walBytes = size(`${sqlitePath}-wal`);
        s.fileBytes = s.dbBytes + s.walBytes;
      }
      return s;
    },
    async close() {
      info?.disconnect();
      await store.close();
    },
  };
}

export interface Flatness {
  first: number;
  last: number;
  /** max |sample − first| / first over the samples with the window full. */
  maxDeviation: number;
  samples: number;
}

/** How flat the store stayed from the first sample with the window full (something trimmed) on; null before that. */
export function flatness(samples: readonly StoreSample[], store: 'redis' | 'sqlite'): Flatness | null {
  const values = samples.filter((s) => s.floor > 0).map((s) => (store === 'redis' ? s.usedMemory! : s.fileBytes!));
  if (values.length === 0) return null;
  const first = values[0]!;
  return {
    first,
    last: values.at(-1)!,
    maxDeviation: Math.max(...values.map((v) => Math.abs(v - first) / first)),
    samples: values.length,
  };
}

/** `node bin/tcs.mjs <args>` (nice -n 10) as cron would run it; its exit code, output and wall time. */
export function runTcs(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; ms: number; output: string }> {
  const t0 = performance.now();
  const child = spawn('nice', ['-n', '10', process.execPath, join(REPO_ROOT, 'bin/tcs.mjs'), ...args], {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code: code ?? -1, ms: performance.now() - t0, output })),
  );
}

/** The archive's size on disk and the entries it holds: a file: directory, or the PostgreSQL tables. */
export async function archiveBytes(url: string, db: TestDatabase | null): Promise<{ bytes: number; entries: number }> {
  if (db) {
    const size = await db.query(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c
        WHERE c.relname IN ('tcs_audit_entries', 'tcs_audit_segments', 'tcs_audit_verified') AND c.relkind = 'r'`,
    );
    const count = await db.query('SELECT count(*)::bigint AS n FROM tcs_audit_entries');
    return { bytes: Number(size.rows[0].bytes), entries: Number(count.rows[0].n) };
  }
  const dir = url.slice('file:'.length);
  let bytes = 0;
  let entries = 0;
  for (const name of existsSync(dir) ? readdirSync(dir) : []) {
    const m = /^(\d+)-(\d+)\.jsonl\.gz$/.exec(name);
    if (!m) continue;
    bytes += statSync(join(dir, name)).size;
    entries += Number(m[2]) - Number(m[1]) + 1;
  }
  return { bytes, entries };
}

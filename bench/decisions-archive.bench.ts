/**
 * GET /reports/decisions across the audit archive (issue 35, item 4): a SQLite store of 20,000
 * decision entries of ~2.2 KB (real ones run 3–4 KB), archived to a `file:` directory in segments
 * of 1,000 and trimmed to a window of 1,000; the real API (in-process, inject) with the archive
 * opened read-only. Times, on the monotonic clock, pages of 50: the newest (the store alone), the
 * page across the seam, a cold page deep in the archive (a segment not parsed yet) and the next
 * pages down (the same segment, kept parsed). DECISIONS_ENTRIES overrides the 20,000.
 *
 *   node bin/run-ts.mjs bench/decisions-archive.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileArchive } from '../src/adapters/archive/file-archive.js';
import { archiveAndTrim } from '../src/application/audit-archiver.js';
import { openTestApi } from '../test/support/api.js';
import { int, ms, summarize } from './stats.js';
import type { Summary } from './stats.js';
import { printResult, runDirectly } from './support.js';
import type { BenchResult } from './support.js';

const ENTRIES = Number(process.env.DECISIONS_ENTRIES ?? 20_000);
const WINDOW = 1_000;
const PAGE = 50;
const ROUNDS = 20;

/** A decision body of about 2.2 KB of varied numbers, like a cycle's signals, guards and account. */
function body(cycle: number): Record<string, unknown> {
  const n = (k: number) => Math.round(Math.sin(cycle * 7.1 + k) * 1e6) / 1e3;
  return {
    cycle,
    outcome: 'submitted',
    signals: Array.from({ length: 4 }, (_, i) => ({
      agent: `agent_${i}`,
      score: n(i),
      weight: n(i + 10),
      why: 'ma crossover',
    })),
    risk: Array.from({ length: 4 }, (_, i) => ({
      guard: `guard_${i}`,
      value: n(i + 20),
      limit: n(i + 30),
      verdict: 'pass',
    })),
    account: { nav: n(40), cash: n(41), realized: n(42), positions: Array.from({ length: 6 }, (_, i) => n(i + 50)) },
    candles: Array.from({ length: 6 }, (_, i) => [cycle * 60_000, n(i + 60), n(i + 61), n(i + 62), n(i + 63)]),
    pad: 'x'.repeat(1200),
  };
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const dir = mkdtempSync(join(tmpdir(), 'tcs-bench-decisions-archive-'));
  const path = join(dir, 'archive');
  const api = await openTestApi('sqlite', { archive: fileArchive(path, { readOnly: true }) });
  try {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (let cycle = 1; cycle <= ENTRIES; cycle++)
      await api.store.events.append({
        kind: 'decision',
        at: new Date(t0 + cycle * 60_000).toISOString(),
        symbol: 'BTCUSDT',
        body: body(cycle),
      });
    await archiveAndTrim(api.store.events, fileArchive(path), { entries: WINDOW }, Date.now());
    const floor = (await api.store.events.floor()).seq;
    const time = async (before: number | null): Promise<number> => {
      const url = `/reports/decisions?limit=${PAGE}${before === null ? '' : `&before=${before}`}`;
      const t = performance.now();
      const res = await api.app.inject({ method: 'GET', url, headers: api.auth });
      const took = performance.now() - t;
      if (res.statusCode !== 200 || (res.json() as unknown[]).length !== PAGE)
        throw new Error(`${url}: ${res.statusCode}`);
      return took;
    };
    const samples = { newest: [] as number[], seam: [] as number[], cold: [] as number[], warm: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      samples.newest.push(await time(null));
      samples.seam.push(await time(floor + 10));
      // A segment no page read before, then the pages below it in the same segment.
      const segmentTop = Math.floor(((round * 3) % (floor / 1000 - 1)) + 1) * 1000;
      samples.cold.push(await time(segmentTop + 1));
      samples.warm.push(await time(segmentTop + 1 - PAGE));
      samples.warm.push(await time(segmentTop + 1 - 2 * PAGE));
    }
    const rows: Array<[string, Summary]> = [
      ['newest page (store only)', summarize(samples.newest)],
      ['page across the seam', summarize(samples.seam)],
      ['cold page deep in the archive (a segment not parsed yet)', summarize(samples.cold)],
      ['next pages down (segment kept parsed)', summarize(samples.warm)],
    ];
    const result: BenchResult = {
      id: 'decisions-archive',
      title: 'GET /reports/decisions across the audit archive (file:, SQLite store)',
      command: 'node bin/run-ts.mjs bench/decisions-archive.bench.ts',
      method: [
        `${int(ENTRIES)} decision entries of ~2.2 KB on a SQLite store, archived to file: in segments of 1,000 and trimmed to a window of ${int(WINDOW)}.`,
        `The real API in-process (inject), archive opened read-only; pages of ${PAGE}, ${ROUNDS} rounds, monotonic clock.`,
      ],
      tables: [
        {
          headers: ['page', 'n', 'p50', 'p90', 'max'],
          rows: rows.map(([name, s]) => [name, int(s.n), ms(s.p50), ms(s.p90), ms(s.max)]),
        },
      ],
      figures: rows.map(([name, s]) => ({
        figure: `/reports/decisions across the archive: ${name}, p50`,
        aim: '—',
        latest: `${ms(s.p50)} (p90 ${ms(s.p90)}, ${int(s.n)} pages of ${PAGE})`,
        met: null,
      })),
      aims: [],
      notes: [],
      seconds: (performance.now() - started) / 1000,
      data: rows,
    };
    printResult(result);
    return result;
  } finally {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runDirectly(run);

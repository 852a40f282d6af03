/**
 * `tcs audit export` as an accountant runs it (issue 35): a real process reads a range across a
 * PostgreSQL archive (a database of the test's own, dropped after) and the hot SQLite store as one
 * chain, writes CSV or JSON lines, refuses bad arguments before writing anything, fails naming
 * the entry when an archived row is gone, leaving no half a file behind, and ends quietly when the
 * reader of its stdout stops early.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresArchive } from '../../src/adapters/archive/postgres-archive.js';
import { openStore } from '../../src/adapters/open-store.js';
import { archiveAndTrim } from '../../src/application/audit-archiver.js';
import { EXPORT_COLUMNS } from '../../src/domain/audit-export-rows.js';
import { chainHash } from '../../src/domain/hash-chain.js';
import type { AuditEvent } from '../../src/ports/event-store.js';
import { createTestDatabase } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { startTcs } from '../support/processes.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const t0 = Date.parse('2026-01-01T00:00:00Z');

/** 1,500 cycles a minute apart, every tenth filling an order; 1,200 archived to PostgreSQL, 300 hot. */
async function trail(): Promise<{ dir: string; env: NodeJS.ProcessEnv; db: TestDatabase }> {
  const dir = mkdtempSync(join(tmpdir(), 'tcs-export-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const db = await createTestDatabase();
  cleanups.push(() => db.drop());
  const storeUrl = `sqlite:${join(dir, 'tcs.db')}`;
  const store = await openStore(storeUrl);
  const archive = postgresArchive(db.url);
  try {
    for (let i = 0; i < 1500; i++) {
      const id = `c-${i}`;
      const trade = i % 10 === 0;
      await store.events.append({
        kind: 'decision',
        at: new Date(t0 + i * 60_000).toISOString(),
        symbol: 'BTC-USD',
        body: {
          cycle: i + 1,
          account: { nav: 1000 + i, cash: 500, realized_pnl: i / 10 },
          proposals: trade
            ? [
                {
                  order: {
                    clientOrderId: id,
                    symbol: 'BTC-USD',
                    side: 'buy',
                    qty: 0.1,
                    type: 'market',
                    limitPrice: null,
                    reduceOnly: false,
                  },
                },
              ]
            : [],
          submissions: trade
            ? [
                {
                  clientOrderId: id,
                  status: 'submitted',
                  venueStatus: 'filled',
                  filledQty: 0.1,
                  avgFillPrice: 100 + i,
                  duplicate: false,
                },
              ]
            : [],
        },
      });
    }
    await archiveAndTrim(store.events, archive, { entries: 300 }, t0);
    expect(await store.events.floor()).toMatchObject({ seq: 1200 });
  } finally {
    await archive.close();
    await store.close();
  }
  return { dir, db, env: { STORE_URL: storeUrl, AUDIT_ARCHIVE_URL: db.url } };
}

describe('tcs audit export', () => {
  it(
    'writes a time range across archive and hot store as CSV, and a seq range as JSON lines',
    { timeout: 60_000 },
    async () => {
      const { dir, env } = await trail();
      const csvPath = join(dir, 'jan.csv');
      // Entry n is stamped minute n-1: [minute 1100, minute 1300) is entries 1101–1300.
      const from = new Date(t0 + 1100 * 60_000).toISOString();
      const to = new Date(t0 + 1300 * 60_000).toISOString();
      const csv = startTcs(['audit', 'export', '--from', from, '--to', to, '--out', csvPath], env, dir);
      expect((await csv.exited).code, csv.stderr()).toBe(0);
      expect(csv.stderr()).toMatch(/200 entries \(entries 1101–1300\) as csv/);
      const lines = readFileSync(csvPath, 'utf8').trimEnd().split('\n');
      expect(lines[0]).toBe(EXPORT_COLUMNS.join(','));
      expect(lines).toHaveLength(201);
      const header = lines[0]!.split(',');
      const row = (line: string) => Object.fromEntries(line.split(',').map((v, i) => [header[i], v]));
      expect(row(lines[1]!)).toMatchObject({
        seq: '1101',
        kind: 'decision',
        cycle: '1101',
        side: 'buy',
        filled_qty: '0.1',
        avg_fill_price: '1200',
      });
      expect(row(lines[200]!)).toMatchObject({ seq: '1300', cycle: '1300', side: '', nav: '2299' });

      const jsonl = startTcs(['audit', 'export', '--from', '1190', '--to', '1210', '--format', 'jsonl'], env, dir);
      expect((await jsonl.exited).code, jsonl.stderr()).toBe(0);
      const entries = jsonl
        .stdout()
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as AuditEvent);
      expect(entries.map((e) => e.seq)).toEqual(Array.from({ length: 21 }, (_, i) => 1190 + i));
      for (const e of entries) expect(chainHash(e.prev_hash, e)).toBe(e.hash);
    },
  );

  it(
    'refuses bad arguments before writing anything, and names a missing archived row',
    { timeout: 60_000 },
    async () => {
      const { dir, env, db } = await trail();
      const out = join(dir, 'out.csv');
      for (const [args, said] of [
        [['--from', 'last week'], /--from must be a seq .* or an ISO 8601/],
        [['--format', 'xlsx'], /--format must be csv or jsonl/],
        [['--from', '50', '--to', '10'], /after --to/],
      ] as const) {
        const run = startTcs(['audit', 'export', ...args, '--out', out], env, dir);
        expect((await run.exited).code).toBe(2);
        expect(run.stderr()).toMatch(said);
        expect(existsSync(out)).toBe(false);
      }
      await db.query('DELETE FROM tcs_audit_entries WHERE seq = 700');
      const gap = startTcs(['audit', 'export', '--from', '600', '--to', '1400', '--out', out], env, dir);
      expect((await gap.exited).code).toBe(1);
      expect(gap.stderr()).toMatch(/entry 700 is in neither the archive nor the hot store/);
      expect(existsSync(out)).toBe(false);
      expect(existsSync(`${out}.tmp`)).toBe(false);
    },
  );

  it('ends quietly when its reader closes the pipe early (`| head`)', { timeout: 60_000 }, async () => {
    const { dir, env } = await trail();
    const run = startTcs(['audit', 'export'], env, dir);
    await new Promise<void>((done) => run.child.stdout.once('data', () => done()));
    run.child.stdout.destroy();
    expect((await run.exited).code, run.stderr()).toBe(0);
    expect(run.stderr()).not.toMatch(/EPIPE|Unhandled/);
  });
});

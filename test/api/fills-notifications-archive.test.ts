/**
 * GET /reports/fills and GET /reports/notifications across the audit archive, as /reports/decisions
 * pages (issue 35, item 4): on a real SQLite store archived to `file:` and trimmed, paging with
 * `before` walks archive + store as one sequence, every fill and every notice once, newest first;
 * `X-Audit-Archive` says whether the archive was read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileArchive } from '../../src/adapters/archive/file-archive.js';
import { archiveAndTrim } from '../../src/application/audit-archiver.js';
import { openTestApi } from '../support/api.js';
import type { TestApi } from '../support/api.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');

describe('fills and notifications across a file: archive', () => {
  let api: TestApi | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await api?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    api = dir = undefined;
  });

  /** 40 cycles: a decision each, every fourth followed by a resting order's fill; a window of 10 kept. */
  async function trimmed(): Promise<{ fills: number[]; kills: number[] }> {
    dir = mkdtempSync(join(tmpdir(), 'tcs-fills-archive-'));
    const path = join(dir, 'archive');
    api = await openTestApi('sqlite', { archive: fileArchive(path, { readOnly: true }) });
    const fills: number[] = [];
    const kills: number[] = [];
    for (let cycle = 1; cycle <= 40; cycle++) {
      const at = new Date(T0 + cycle * 60_000).toISOString();
      await api.store.events.append({ kind: 'decision', at, symbol: 'BTCUSDT', body: { cycle } });
      if (cycle % 4 === 0) {
        const body = { client_order_id: `c-${cycle}`, symbol: 'BTCUSDT', side: 'BUY', qty: 0.1, price: 100 };
        const entry = await api.store.events.append({
          kind: 'order_filled',
          at,
          symbol: 'BTCUSDT',
          body: { ...body, fee: 0, liquidity: 'maker', filled_at: at, source: 'resting' },
        });
        fills.push(entry.seq);
      }
      if (cycle % 10 === 0) {
        const kill = await api.store.events.append({
          kind: 'control',
          at,
          body: { event: 'control.kill', outcome: 'changed', actor: 'k', reason: `r${cycle}` },
        });
        kills.push(kill.seq);
      }
    }
    await archiveAndTrim(api.store.events, fileArchive(path), { entries: 10 }, Date.now());
    expect(await api.store.events.count()).toBe(10);
    return { fills: fills.reverse(), kills: kills.reverse() };
  }

  /**
   * Every page from the newest, following `before` = the smallest seq of the page before. `limit`
   * counts entries read (not fills or notices): 7 always holds one of the fills spaced 5 apart.
   */
  async function walk(route: string, limit: number): Promise<{ seqs: number[]; archive: string[] }> {
    const seqs: number[] = [];
    const archive: string[] = [];
    for (let before: number | undefined, pages = 0; pages < 100; pages++) {
      const url = `${route}?limit=${limit}${before === undefined ? '' : `&before=${before}`}`;
      const res = await api!.app.inject({ method: 'GET', url, headers: api!.auth });
      expect(res.statusCode, res.body).toBe(200);
      archive.push(String(res.headers['x-audit-archive']));
      const page = res.json() as { seq: number }[];
      if (page.length === 0) break;
      seqs.push(...page.map((p) => p.seq));
      before = page.at(-1)!.seq;
    }
    return { seqs, archive };
  }

  it('lists every fill once, newest first, reading the archive below the window', async () => {
    const { fills } = await trimmed();
    const { seqs, archive } = await walk('/reports/fills', 7);
    expect(seqs).toEqual(fills);
    expect(archive).toContain('read');
  });

  it('lists every notice once (the fills and the kills), newest first, across the seam', async () => {
    const { fills, kills } = await trimmed();
    const { seqs, archive } = await walk('/reports/notifications', 7);
    expect(seqs).toEqual([...fills, ...kills].sort((a, b) => b - a));
    expect(archive).toContain('read');
  });
});

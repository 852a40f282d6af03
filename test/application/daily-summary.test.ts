/**
 * The daily summary on a real SQLite store, time injected: due at NOTIFY_DAILY_AT for the previous
 * UTC day, its figures read from that day's audit entries only, queued once per day — also by a
 * notifier that restarts (a new outbox over the same file) — and only for targets that take it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createKvOutbox } from '../../src/adapters/notify/kv-outbox.js';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import { queueDailySummary } from '../../src/application/daily-summary.js';
import { dueSummaryDay, parseDailyAt } from '../../src/domain/notifications/daily-summary.js';
import { parseWebhookTargets } from '../../src/domain/notifications/webhook.js';
import { telegramMessage } from '../../src/domain/notifications/telegram.js';
import type { Store } from '../../src/ports/store.js';
import { initialised } from '../support/stores.js';

const dir = mkdtempSync(join(tmpdir(), 'tcs-daily-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const decision = (store: Store, at: string, nav: number, pnl: number, fills: Array<number | null>) =>
  store.events.append({
    kind: 'decision',
    at,
    body: {
      cycle: 1,
      submissions: fills.map((fee, i) => ({
        clientOrderId: `o${i}`,
        status: 'submitted',
        filledQty: 1,
        ...(fee === null ? {} : { fee }),
      })),
      account: { nav, realized_pnl: pnl },
    },
  });

it('names the due day from NOTIFY_DAILY_AT (UTC)', () => {
  const t = (iso: string) => Date.parse(iso);
  expect(dueSummaryDay(t('2026-11-28T00:00:00Z'), 0)).toBe('2026-11-27');
  expect(dueSummaryDay(t('2026-11-27T23:59:59Z'), 0)).toBe('2026-11-26');
  expect(dueSummaryDay(t('2026-11-28T07:59:00Z'), 480)).toBe('2026-11-26');
  expect(dueSummaryDay(t('2026-11-28T08:00:00Z'), 480)).toBe('2026-11-27');
  expect(parseDailyAt('08:30')).toBe(510);
  expect(parseDailyAt('off')).toBeNull();
  expect(() => parseDailyAt('8:30')).toThrow(/HH:MM/);
});

it("summarises the previous day's trail once, across a restart, for the targets that take it", async () => {
  const path = join(dir, 's.db');
  const store = await initialised(await openSqliteStore({ path }));
  // A fixed instant at mid-day: "later the same day" (+1 h) stays that day. On the wall clock this
  // test failed every day from 23:00 UTC, when +1 h is the next day and its summary is due.
  const now = Date.parse('2026-11-28T10:00:00.000Z');
  const day = (offsetDays: number, hour: number) =>
    new Date(Math.floor(now / 86_400_000 + offsetDays) * 86_400_000 + hour * 3_600_000).toISOString();
  try {
    // The day before yesterday (the baseline), yesterday (the day summarised), today (not in it).
    await decision(store, day(-2, 23), 1000, 5, []);
    await decision(store, day(-1, 1), 1010, 5, [0.5]);
    await store.events.append({ kind: 'trading_halt_started', at: day(-1, 2), body: { reason: 'x' } });
    await store.events.append({
      kind: 'control',
      at: day(-1, 3),
      body: { event: 'control.kill', outcome: 'changed', actor: 'api', reason: 'r' },
    });
    await decision(store, day(-1, 4), 1040, 32, [0.25, null]);
    await decision(store, day(0, 0), 2000, 90, [9]);
    const targets = [...parseWebhookTargets('http://127.0.0.1:9/all http://127.0.0.1:9/kills?kinds=kill')];
    const outbox = createKvOutbox(store.kv);
    const at = now;
    const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10);
    expect(await queueDailySummary(store.events, store.kv, outbox, targets, at, 0)).toBe(yesterday);
    const queued = await outbox.due(Number.MAX_SAFE_INTEGER, 10);
    expect(queued).toHaveLength(1); // the kills-only target takes none
    expect(queued[0]!.target).toBe(targets[0]!.id);
    expect(queued[0]!.body).toMatchObject({
      schema: 'tcs.notification/1',
      kind: 'daily_summary',
      notification_id: `daily:${yesterday}`,
      data: {
        day: yesterday,
        fills: 3,
        realized_pnl: 27,
        fees: 0.75,
        nav_start: 1000,
        nav_end: 1040,
        halt_entries: 1,
        kills: 1,
      },
    });
    // Later the same day, and after a restart (a new outbox and store over the same file): not again.
    expect(await queueDailySummary(store.events, store.kv, outbox, targets, at + 3_600_000, 0)).toBeNull();
    const again = await openSqliteStore({ path });
    try {
      expect(
        await queueDailySummary(again.events, again.kv, createKvOutbox(again.kv), targets, at + 60_000, 0),
      ).toBeNull();
    } finally {
      await again.close();
    }
    expect(await outbox.recent(10)).toHaveLength(1);
  } finally {
    await store.close();
  }
});

it('reads as Telegram text with the figures', () => {
  const text = telegramMessage({
    id: 'daily:2026-11-27',
    seq: 9,
    at: '2026-11-28T00:00:01.000Z',
    kind: 'daily_summary',
    symbol: null,
    title: 'Daily summary 2026-11-27 (UTC)',
    text: 'fills 3, realised PnL 27, fees 0.75, NAV 1000 -> 1040, halt entries 1, kills 1',
    data: {},
  }).text;
  expect(text).toContain('Daily summary 2026-11-27 (UTC)\nfills 3');
});

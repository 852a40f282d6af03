/**
 * Queues the daily summary when its day is due: the day's audit entries read from the trail (paged
 * by time), the summary built (domain/notifications/daily-summary.ts), queued in the store's outbox
 * like any notice, then the day marked in `notify:daily`. Queued before marked: a crash between the
 * two queues it again under the same delivery id, which the outbox drops (it keeps the id), so a day
 * is never sent twice, across restarts too. A notifier first run on a store summarises only the
 * latest due day, never the whole history; days missed while it was down are not made up.
 */
import { dailySummary, dayRange, dueSummaryDay } from '../domain/notifications/daily-summary.js';
import type { EventStore, AuditEvent } from '../ports/event-store.js';
import type { KeyValueStore } from '../ports/key-value-store.js';
import type { NotifyOutbox } from '../ports/notify-outbox.js';
import { deliveriesOf } from './notify-pump.js';
import type { NotifyTarget } from './notify-pump.js';

export const DAILY_KEY = 'notify:daily';
const PAGE = 1000;

/** The day queued now (`YYYY-MM-DD`), or null when nothing was due. */
export async function queueDailySummary(
  events: EventStore,
  kv: KeyValueStore,
  outbox: NotifyOutbox,
  targets: readonly NotifyTarget[],
  nowMs: number,
  atMinutes: number,
): Promise<string | null> {
  const wanting = targets.filter((t) => t.kinds === null || t.kinds.includes('daily_summary'));
  if (!wanting.length) return null;
  const day = dueSummaryDay(nowMs, atMinutes);
  const done = ((await kv.get(DAILY_KEY)) as { day?: string } | null)?.day ?? '';
  if (done >= day) return null;
  const [since, until] = dayRange(day);
  const entries: AuditEvent[] = [];
  let before: number | undefined;
  for (let page = 0; page < 10_000; page++) {
    const got = await events.query({ limit: PAGE, since, until, ...(before ? { before } : {}) });
    entries.push(...got);
    if (got.length < PAGE) break;
    before = got[got.length - 1]!.seq;
  }
  const [last] = await events.query({ kind: 'decision', limit: 1, until: since });
  const summary = dailySummary(day, entries, last ?? null, new Date(nowMs).toISOString());
  await outbox.enqueue(await outbox.cursor(), deliveriesOf([summary], wanting));
  await kv.set(DAILY_KEY, { day });
  return day;
}

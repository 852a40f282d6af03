/**
 * The notifier's two steps, each bounded and off the trading cycle's path: `queueNew` follows the
 * audit chain from the outbox cursor and queues a delivery per (chosen notification, wanting target);
 * `deliverDue` posts what is due, each with a timeout, and records the outcome with a backoff;
 * `notifierStatus` says what waits, for /health and /metrics.
 * A target is a webhook or a Telegram chat (sent through the bot the caller hands in): the same
 * outbox, cursor and retries for both. Errors name the target by id, never its URL (it may carry a
 * token) or its chat id.
 */
import { selectNotifications } from '../domain/notifications/select.js';
import type { Notification } from '../domain/notifications/select.js';
import {
  backoffMs,
  deliveryId,
  notificationBody,
  SIGNATURE_HEADER,
  signatureHeader,
  wants,
} from '../domain/notifications/webhook.js';
import type { WebhookTarget } from '../domain/notifications/webhook.js';
import { telegramMessage } from '../domain/notifications/telegram.js';
import type { TelegramTarget } from '../domain/notifications/telegram.js';
import type { AuditEvent, EventStore } from '../ports/event-store.js';
import type { NotifierStatus } from '../domain/runtime-documents.js';
import type { NotifyOutbox, OutboxDelivery } from '../ports/notify-outbox.js';

const PAGE = 500;

export type NotifyTarget = WebhookTarget | TelegramTarget;

/** Queues the notifications of audit entries after the cursor; returns how many deliveries were queued. */
export async function queueNew(
  events: EventStore,
  outbox: NotifyOutbox,
  targets: readonly NotifyTarget[],
): Promise<number> {
  const cursor = await outbox.cursor();
  const entries: AuditEvent[] = [];
  let before: number | undefined;
  // Newest first, paging back to the cursor (the port reads backwards only).
  for (let page = 0; page < 10_000; page++) {
    const got = await events.query({ limit: PAGE, ...(before ? { before } : {}) });
    const fresh = got.filter((e) => e.seq > cursor);
    entries.push(...fresh);
    if (fresh.length < got.length || got.length < PAGE) break;
    before = got[got.length - 1]!.seq;
  }
  if (!entries.length) return 0;
  entries.sort((a, b) => a.seq - b.seq);
  const deliveries = deliveriesOf(
    entries.flatMap((e) => selectNotifications(e)),
    targets,
  );
  await outbox.enqueue(entries[entries.length - 1]!.seq, deliveries);
  return deliveries.length;
}

/** A pending delivery per (notification, target that wants its kind), its body built for the target's format. */
export function deliveriesOf(
  notifications: readonly Notification[],
  targets: readonly NotifyTarget[],
): OutboxDelivery[] {
  return notifications.flatMap((n) =>
    targets
      .filter((t) => wants(t, n.kind))
      .map((t) => {
        const id = deliveryId(n.id, t.id);
        return {
          id,
          target: t.id,
          notification_id: n.id,
          kind: n.kind,
          seq: n.seq,
          at: n.at,
          title: n.title,
          body: t.format === 'telegram' ? telegramMessage(n) : notificationBody(n, t.format, id),
          state: 'pending' as const,
          attempts: 0,
          next_at: 0,
          last_error: null,
          delivered_at: null,
        };
      }),
  );
}

/**
 * The notifier's status after a round, from its outbox: the pending deliveries (all of them, oldest
 * event first), the oldest one's event time, and per target what waits and the last error it met.
 */
export async function notifierStatus(
  outbox: NotifyOutbox,
  targets: readonly { id: string }[],
  nowMs: number,
  intervalMs: number,
): Promise<NotifierStatus> {
  const pending = await outbox.due(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
  const oldest = pending[0];
  const ids = [...new Set([...targets.map((t) => t.id), ...pending.map((d) => d.target)])];
  return {
    ts: nowMs,
    intervalMs,
    backlog: pending.length,
    oldestPendingAt: oldest ? Date.parse(oldest.at) || nowMs : null,
    targets: ids.map((id) => {
      const mine = pending.filter((d) => d.target === id);
      return { id, pending: mine.length, lastError: mine.find((d) => d.last_error !== null)?.last_error ?? null };
    }),
  };
}

export interface DeliverOptions {
  secret: string;
  nowMs: () => number;
  timeoutMs: number;
  limit?: number;
  /**
   * Sends a Telegram message: null when Telegram accepted it, else the error to record (no token in
   * it). Without it, Telegram deliveries wait untried (the bot is not configured in this process).
   */
  sendTelegram?: (chatId: string, text: string) => Promise<string | null>;
  /** Checked before each delivery: false stops the lane (the process is stopping); the rest wait for the next run. */
  going?: () => boolean;
}

/**
 * Posts the due deliveries, each target's in order and the targets side by side: a receiver that
 * hangs until its timeout holds up only its own deliveries, never another target's. Returns
 * [delivered, failed]. The outbox must be `serialised` when several of these run at once.
 */
export async function deliverDue(
  outbox: NotifyOutbox,
  targets: readonly NotifyTarget[],
  options: DeliverOptions,
): Promise<[number, number]> {
  const counts = await Promise.all(targets.map((t) => deliverTo(outbox, t, options)));
  return counts.reduce<[number, number]>((sum, [ok, failed]) => [sum[0] + ok, sum[1] + failed], [0, 0]);
}

/** One target's due deliveries, oldest first, one at a time. */
async function deliverTo(
  outbox: NotifyOutbox,
  target: NotifyTarget,
  options: DeliverOptions,
): Promise<[number, number]> {
  let ok = 0;
  let failed = 0;
  if (target.format === 'telegram' && !options.sendTelegram) return [0, 0]; // no bot here: left waiting
  for (const d of await outbox.due(options.nowMs(), options.limit ?? 50, target.id)) {
    if (options.going && !options.going()) break;
    const error =
      target.format === 'telegram'
        ? await options.sendTelegram!(target.chatId, (d.body as { text: string }).text)
        : await post(target, d, options);
    if (error === null) {
      ok++;
      await outbox.settle(d.id, { delivered: true, at: new Date(options.nowMs()).toISOString() });
    } else {
      failed++;
      await outbox.settle(d.id, { delivered: false, error, nextAt: options.nowMs() + backoffMs(d.attempts + 1) });
    }
  }
  return [ok, failed];
}

/**
 * The outbox with its operations one at a time: each is a read and a write of one document, and two
 * interleaved (a delivery settled while new ones are queued) would lose one's write. Only the
 * store's quick read-modify-write is serialised, never a post.
 */
export function serialised(outbox: NotifyOutbox): NotifyOutbox {
  let tail: Promise<unknown> = Promise.resolve();
  const one = <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
  return {
    cursor: () => one(() => outbox.cursor()),
    enqueue: (through, deliveries) => one(() => outbox.enqueue(through, deliveries)),
    due: (nowMs, limit, target) => one(() => outbox.due(nowMs, limit, target)),
    settle: (id, outcome) => one(() => outbox.settle(id, outcome)),
    recent: (limit) => one(() => outbox.recent(limit)),
    backlog: () => one(() => outbox.backlog()),
  };
}

/** Posts one webhook delivery, signed; null when the receiver answered 2xx, else why not. */
async function post(target: WebhookTarget, d: OutboxDelivery, options: DeliverOptions): Promise<string | null> {
  const body = JSON.stringify(d.body);
  try {
    const res = await fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-tcs-delivery': d.id,
        [SIGNATURE_HEADER]: signatureHeader(options.secret, body, options.nowMs() / 1000),
      },
      body,
      // A redirect is not followed (it fails as `HTTP 30x`): the signed body goes only where it was configured to.
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.ok ? null : `HTTP ${res.status}`;
  } catch (err) {
    return err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'unreachable';
  }
}

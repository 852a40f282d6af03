/**
 * `tcs notify`: the notifier (webhooks and Telegram) as a process of its own, beside `tcs start`, reading the same
 * store (STORE_URL). Each round it queues the notifications of audit entries past its cursor
 * (application/notify-pump.ts, one write with the cursor: a crash queues nothing twice) and posts
 * what is due, each with a bounded timeout, retrying with backoff. It never writes to the trading
 * or control state, so a receiver that is down or slow delays only its own deliveries.
 *
 * Delivery is at least once: a SIGKILL after a receiver accepted a delivery and before the outbox
 * recorded it sends that delivery again, under the same `x-tcs-delivery` id, which receivers use
 * to drop the repeat. Targets are named by id in every line, never by URL (it may hold a token).
 *
 * With TELEGRAM_BOT_TOKEN it also runs the Telegram bot (./notify-telegram.ts): its chats are
 * targets of the same outbox, and their commands act through the REST API's control plane.
 */
import { createKvOutbox } from '../adapters/notify/kv-outbox.js';
import { createMemoryOutbox } from '../adapters/notify/memory-outbox.js';
import { openStore } from '../adapters/open-store.js';
import type { TelegramBot } from '../adapters/notify/telegram-bot.js';
import { deliverDue, notifierStatus, queueNew, serialised } from '../application/notify-pump.js';
import type { NotifyTarget } from '../application/notify-pump.js';
import { rememberedCursor } from '../application/remembered-cursor.js';
import { queueDailySummary } from '../application/daily-summary.js';
import { settleLater } from '../application/settle-later.js';
import { StoreFaultNotices } from '../application/store-fault-notices.js';
import { parseDailyAt } from '../domain/notifications/daily-summary.js';
import { parseWebhookTargets } from '../domain/notifications/webhook.js';
import { NOTIFIER_STATUS_KEY } from '../domain/runtime-documents.js';
import { writeDocument } from '../ports/documents.js';
import type { NotifyOutbox } from '../ports/notify-outbox.js';
import type { Store } from '../ports/store.js';
import type { WebhookTarget } from '../domain/notifications/webhook.js';
import { readTelegramConfig, telegramBot } from './notify-telegram.js';
import { ConfigError, readInt, readStoreTimeoutMs, readStoreUrl } from './config.js';

/** Between rounds: a notification reaches its receiver within about this (plus its POST). */
const ROUND_MS = 500;
/** A receiver that has not answered by then counts as failed (retried later): one round never waits longer per delivery. */
const POST_TIMEOUT_MS = 5_000;
/** The least secret length: the same bar as the API key's. */
const MIN_SECRET_LENGTH = 32;

export async function runNotifier(env: NodeJS.ProcessEnv): Promise<number> {
  const webhooks = readWebhooks(env);
  const telegram = readTelegramConfig(env);
  if (webhooks === null && telegram === null)
    throw new ConfigError(
      'NOTIFY_WEBHOOK_URLS is empty and TELEGRAM_BOT_TOKEN is not set: give the webhook URLs to notify, a Telegram bot, or both (docs/operate/notifications.md)',
    );
  const targets: NotifyTarget[] = [...(webhooks?.targets ?? []), ...(telegram?.targets ?? [])];
  const store = await openStore(readStoreUrl(env), { timeoutMs: readStoreTimeoutMs(env) });
  const faultAfterMs = readInt(env, 'NOTIFY_STORE_FAULT_MS', 15_000, 0, 3_600_000);
  const dailyAt = readDailyAt(env);
  const { outbox, direct, faults } = outboxes(store, targets, faultAfterMs);
  let stopping = false;
  let fatal: string | null = null;
  let wake: (() => void) | null = null;
  const stop = () => {
    stopping = true;
    wake?.();
  };
  let bot: TelegramBot | null = null;
  let polling: Promise<void> = Promise.resolve();
  try {
    bot = telegram ? telegramBot(env, telegram, store, (message) => logError('telegram_error', message)) : null;
  } catch (err) {
    await store.close();
    throw err;
  }
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // A Bot API that refuses the token (401) or sees another poller on it (409) ends the notifier: no
  // command could reach it, and an operator must know at once rather than at the next kill.
  if (bot) polling = bot.start().catch((err: unknown) => ((fatal = (err as Error).message), stop()));
  console.log(
    JSON.stringify({ event: 'notifier_started', targets: targets.map((t) => t.id), telegram: telegram !== null }),
  );
  const deliver = {
    secret: webhooks?.secret ?? '',
    nowMs: () => Date.now(),
    timeoutMs: POST_TIMEOUT_MS,
    going: () => !stopping,
    ...(bot ? { sendTelegram: bot.send } : {}),
  };
  // One lane per target, not awaited by the round: a receiver that hangs until its timeout delays
  // its own deliveries only, while the rounds go on queueing and the other targets' lanes deliver.
  // The store's outbox and the one in memory each have a lane per target.
  const lanes = new Map<string, Promise<void>>();
  const startLane = (target: (typeof targets)[number], from: typeof outbox | typeof direct, name: string) => {
    const key = `${name}:${target.id}`;
    if (lanes.has(key)) return;
    const lane = deliverDue(from, [target], deliver)
      .then(([delivered, failed]) => {
        if (delivered + failed > 0)
          console.log(JSON.stringify({ event: 'notifier_round', target: target.id, delivered, failed }));
      })
      .catch((err: unknown) => logError('notifier_error', err instanceof Error ? err.message : String(err)))
      .finally(() => lanes.delete(key));
    lanes.set(key, lane);
  };
  try {
    while (!stopping) {
      let failure: unknown = null;
      try {
        await queueRound(store, outbox, targets, dailyAt);
        for (const target of targets) startLane(target, outbox, 'store');
        // After every round, so a notifier that stops shows as stale on /health, not as an empty backlog.
        await writeDocument(store.kv, NOTIFIER_STATUS_KEY, await notifierStatus(outbox, targets, Date.now(), ROUND_MS));
      } catch (err) {
        // A store that is away for a while is a pause, not an end: the next round tries again.
        failure = err;
        logError('notifier_error', err instanceof Error ? err.message : String(err));
      }
      // Every round reads and writes the store (its status at least): whether that worked is the watch's input.
      const told = await faults.observe(failure, outbox.remembered());
      if (told) console.log(JSON.stringify({ event: 'notifier_store', notice: told }));
      for (const target of targets) startLane(target, direct, 'direct');
      if (!stopping) await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, ROUND_MS)));
    }
  } finally {
    await bot?.stop().catch(() => undefined);
    await polling;
    // A post in flight ends within its timeout; its outcome is recorded before the store closes.
    await Promise.all(lanes.values());
    await store.close();
  }
  if (fatal === null) return 0;
  logError('notifier_stopped', fatal);
  return 1;
}

/**
 * The store's outbox and the one in memory. The store's has its cursor remembered here, so a store
 * that comes back empty or replaced is a fault, not a fresh start; a delivery the store refused to
 * record as done waits here too, rather than being posted every round. Notices about the store
 * itself cannot wait in the store: they are held in memory (`direct`) and posted from there.
 */
function outboxes(store: Store, targets: NotifyTarget[], faultAfterMs: number) {
  // Lanes settle deliveries while rounds queue new ones: one outbox operation at a time.
  const outbox = rememberedCursor(settleLater(serialised(createKvOutbox(store.kv))));
  const direct = createMemoryOutbox();
  const faults = new StoreFaultNotices({
    targets,
    outbox: direct,
    debounceMs: faultAfterMs,
    monoMs: () => performance.now(),
    nowMs: () => Date.now(),
  });
  return { outbox, direct, faults };
}

/** Queues the trail's new notices and, when its day is due, the daily summary. */
async function queueRound(store: Store, outbox: NotifyOutbox, targets: NotifyTarget[], dailyAt: number | null) {
  const queued = await queueNew(store.events, outbox, targets);
  const daily =
    dailyAt === null ? null : await queueDailySummary(store.events, store.kv, outbox, targets, Date.now(), dailyAt);
  if (queued > 0 || daily) console.log(JSON.stringify({ event: 'notifier_round', queued, daily }));
}

/** NOTIFY_DAILY_AT as minutes after UTC midnight (default 00:00); null when `off`. */
function readDailyAt(env: NodeJS.ProcessEnv): number | null {
  try {
    return parseDailyAt(env.NOTIFY_DAILY_AT?.trim() || '00:00');
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

const logError = (event: string, message: string) => console.error(JSON.stringify({ event, message }));

/** NOTIFY_WEBHOOK_URLS and its secret; null when no webhook is configured. */
function readWebhooks(env: NodeJS.ProcessEnv): { targets: WebhookTarget[]; secret: string } | null {
  const urls = env.NOTIFY_WEBHOOK_URLS?.trim() ?? '';
  if (urls === '') return null;
  let targets: WebhookTarget[];
  try {
    targets = parseWebhookTargets(urls);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const secret = env.NOTIFY_WEBHOOK_SECRET ?? '';
  if (secret.length < MIN_SECRET_LENGTH)
    throw new ConfigError(
      `NOTIFY_WEBHOOK_SECRET must be at least ${MIN_SECRET_LENGTH} characters (the key receivers check signatures with)`,
    );
  return { targets, secret };
}

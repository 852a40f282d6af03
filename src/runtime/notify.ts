/**
 * `tcs notify`: the webhook notifier as a process of its own, beside `tcs start`, reading the same
 * store (STORE_URL). Each round it queues the notifications of audit entries past its cursor
 * (application/notify-pump.ts, one write with the cursor: a crash queues nothing twice) and posts
 * what is due, each with a bounded timeout, retrying with backoff. It never writes to the trading
 * or control state, so a receiver that is down or slow delays only its own deliveries.
 *
 * Delivery is at least once: a SIGKILL after a receiver accepted a delivery and before the outbox
 * recorded it sends that delivery again, under the same `x-tcs-delivery` id, which receivers use
 * to drop the repeat. Targets are named by id in every line, never by URL (it may hold a token).
 */
import { createKvOutbox } from '../adapters/notify/kv-outbox.js';
import { openStore } from '../adapters/open-store.js';
import { deliverDue, notifierStatus, queueNew } from '../application/notify-pump.js';
import { NOTIFIER_STATUS_KEY } from '../domain/runtime-documents.js';
import { writeDocument } from '../ports/documents.js';
import { parseWebhookTargets } from '../domain/notifications/webhook.js';
import { ConfigError, readStoreUrl } from './config.js';

/** Between rounds: a notification reaches its receiver within about this (plus its POST). */
const ROUND_MS = 500;
/** A receiver that has not answered by then counts as failed (retried later): one round never waits longer per delivery. */
const POST_TIMEOUT_MS = 5_000;
/** The least secret length: the same bar as the API key's. */
const MIN_SECRET_LENGTH = 32;

export async function runNotifier(env: NodeJS.ProcessEnv): Promise<number> {
  const urls = env.NOTIFY_WEBHOOK_URLS?.trim() ?? '';
  if (urls === '')
    throw new ConfigError(
      'NOTIFY_WEBHOOK_URLS is empty: give the webhook URLs to notify (docs/operate/notifications.md)',
    );
  let targets: ReturnType<typeof parseWebhookTargets>;
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
  const store = await openStore(readStoreUrl(env));
  const outbox = createKvOutbox(store.kv);
  let stopping = false;
  let wake: (() => void) | null = null;
  const stop = () => {
    stopping = true;
    wake?.();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  console.log(JSON.stringify({ event: 'notifier_started', targets: targets.map((t) => t.id) }));
  try {
    while (!stopping) {
      try {
        const queued = await queueNew(store.events, outbox, targets);
        const [delivered, failed] = await deliverDue(outbox, targets, {
          secret,
          nowMs: () => Date.now(),
          timeoutMs: POST_TIMEOUT_MS,
        });
        if (queued + delivered + failed > 0)
          console.log(JSON.stringify({ event: 'notifier_round', queued, delivered, failed }));
        // After every round, so a notifier that stops shows as stale on /health, not as an empty backlog.
        await writeDocument(store.kv, NOTIFIER_STATUS_KEY, await notifierStatus(outbox, targets, Date.now(), ROUND_MS));
      } catch (err) {
        // A store that is away for a while is a pause, not an end: the next round tries again.
        console.error(
          JSON.stringify({ event: 'notifier_error', message: err instanceof Error ? err.message : String(err) }),
        );
      }
      if (!stopping) await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, ROUND_MS)));
    }
  } finally {
    await store.close();
  }
  return 0;
}

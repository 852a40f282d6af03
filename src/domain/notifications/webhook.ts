/**
 * Webhook delivery rules, pure: the targets NOTIFY_WEBHOOK_URLS names, the stable delivery id per
 * (notification, target), the Stripe-style signature header (`t=<unix s>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>">`) a receiver checks, the body per target format, and the retry backoff.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KINDS } from './select.js';
import type { Notification, NotificationKind } from './select.js';

export const NOTIFICATION_SCHEMA = 'tcs.notification/1';
export const SIGNATURE_HEADER = 'x-tcs-signature';
/** A receiver refuses a signature older than this (replay window), as Stripe's default. */
export const SIGNATURE_TOLERANCE_S = 300;

export type WebhookFormat = 'json' | 'discord' | 'slack';

export interface WebhookTarget {
  /** Hash of the target's text: names it in the outbox and in logs without its URL (it may hold a token). */
  id: string;
  format: WebhookFormat;
  url: string;
  /** Only these kinds; null: all. */
  kinds: NotificationKind[] | null;
}

/**
 * `[discord:|slack:]<http(s) url>[?kinds=a,b]`, separated by spaces, commas between targets, or `;`.
 * The `kinds` query parameter is ours and is removed from the URL posted to.
 */
export function parseWebhookTargets(text: string): WebhookTarget[] {
  const items = text
    .split(/[\s;]+|,(?=\s*(?:discord:|slack:|https?:))/)
    .map((s) => s.trim())
    .filter(Boolean);
  return items.map((item, index) => {
    const m = /^(discord|slack):(.*)$/.exec(item);
    const format: WebhookFormat = m ? (m[1] as WebhookFormat) : 'json';
    let url: URL;
    try {
      url = new URL(m ? m[2]! : item);
    } catch {
      throw new Error(`NOTIFY_WEBHOOK_URLS: target ${index + 1} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`NOTIFY_WEBHOOK_URLS: target ${index + 1} must be http(s)`);
    }
    const kindsText = url.searchParams.get('kinds');
    url.searchParams.delete('kinds');
    let kinds: NotificationKind[] | null = null;
    if (kindsText !== null) {
      kinds = kindsText.split(',').map((k) => {
        if (!(NOTIFICATION_KINDS as readonly string[]).includes(k)) {
          throw new Error(
            `NOTIFY_WEBHOOK_URLS: target ${index + 1}: unknown kind "${k}" (known: ${NOTIFICATION_KINDS.join(', ')})`,
          );
        }
        return k as NotificationKind;
      });
    }
    const id = createHash('sha256').update(item).digest('hex').slice(0, 16);
    return { id, format, url: url.toString(), kinds };
  });
}

export function wants(target: Pick<WebhookTarget, 'kinds'>, kind: NotificationKind): boolean {
  return target.kinds === null || target.kinds.includes(kind);
}

/** Same notification, same target: same id, across retries and restarts (the receiver dedupes on it). */
export function deliveryId(notificationId: string, targetId: string): string {
  return createHash('sha256').update(`${notificationId}\n${targetId}`).digest('hex').slice(0, 32);
}

const hmac = (secret: string, body: string, t: number): string =>
  createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const t = Math.floor(unixSeconds);
  return `t=${t},v1=${hmac(secret, body, t)}`;
}

/** What a receiver does (docs/operate/notifications.md shows the same in a snippet). */
export function verifySignature(secret: string, body: string, header: string, nowSeconds: number): boolean {
  const parts = new Map(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > SIGNATURE_TOLERANCE_S) return false;
  const want = Buffer.from(hmac(secret, body, t), 'hex');
  const got = Buffer.from(v1, 'hex');
  return got.length === want.length && timingSafeEqual(got, want);
}

export function notificationBody(n: Notification, format: WebhookFormat, delivery: string): unknown {
  const line = `**${n.title}**${n.symbol ? ` (${n.symbol})` : ''}: ${n.text}`;
  if (format === 'discord') return { content: line.slice(0, 2000) };
  if (format === 'slack') return { text: line.replace(/\*\*/g, '*') };
  return {
    schema: NOTIFICATION_SCHEMA,
    delivery_id: delivery,
    notification_id: n.id,
    kind: n.kind,
    seq: n.seq,
    at: n.at,
    symbol: n.symbol,
    title: n.title,
    text: n.text,
    data: n.data,
  };
}

/** Attempt n (1-based) failed: wait 1 s, 2 s, 4 s … capped at 10 min, so an hour's outage costs few tries. */
export function backoffMs(attempt: number): number {
  return Math.min(600_000, 1000 * 2 ** Math.max(0, attempt - 1));
}

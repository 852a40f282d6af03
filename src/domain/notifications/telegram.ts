/**
 * Telegram rules, pure: the allow-list TELEGRAM_CHAT_IDS names (the only chats told anything or
 * heard), a chat as a notify target (named by a hash, as webhooks are), a message read as one of
 * the bot's commands, and a notification as the plain-text message a chat receives. Plain text, no
 * parse mode: a reason or symbol with `*` or `_` can never break the message.
 */
import { createHash } from 'node:crypto';
import { REASON_MAX_LENGTH } from '../control.js';
import type { Notification, NotificationKind } from './select.js';

/** Telegram refuses a message longer than this. */
export const TELEGRAM_TEXT_MAX = 4096;

export interface TelegramTarget {
  /** Hash of the chat id: names the chat in the outbox and in logs. */
  id: string;
  format: 'telegram';
  chatId: string;
  /** Only these kinds; null: all. */
  kinds: NotificationKind[] | null;
}

/** Chat ids separated by commas or spaces; group and channel ids are negative. */
export function parseChatIds(text: string): string[] {
  const items = text.split(/[\s,;]+/).filter(Boolean);
  if (!items.length) throw new Error('TELEGRAM_CHAT_IDS is empty: list the chat ids the bot may talk to');
  items.forEach((item, index) => {
    if (!/^-?\d{1,20}$/.test(item)) throw new Error(`TELEGRAM_CHAT_IDS: item ${index + 1} is not a chat id (digits)`);
  });
  return [...new Set(items)];
}

export function telegramTarget(chatId: string, kinds: NotificationKind[] | null): TelegramTarget {
  const id = `tg-${createHash('sha256').update(`telegram:${chatId}`).digest('hex').slice(0, 16)}`;
  return { id, format: 'telegram', chatId, kinds };
}

export type TelegramCommand =
  | { type: 'status' }
  | { type: 'positions' }
  | { type: 'pause' | 'resume'; reason: string | null }
  | { type: 'kill'; reason: string | null }
  | { type: 'confirm'; code: string }
  | { type: 'help' }
  | { type: 'unknown'; name: string };

/** The command a message carries; null when it is not a command at all. */
export function parseTelegramCommand(text: string): TelegramCommand | null {
  const m = /^\/([A-Za-z_]+)(?:@\w+)?(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  const name = m[1]!.toLowerCase();
  const rest = (m[2] ?? '').trim().slice(0, REASON_MAX_LENGTH) || null;
  switch (name) {
    case 'status':
    case 'positions':
      return { type: name };
    case 'pause':
    case 'resume':
    case 'kill':
      return { type: name, reason: rest };
    case 'confirm':
      return { type: 'confirm', code: (rest ?? '').toUpperCase() };
    case 'help':
    case 'start':
      return { type: 'help' };
    default:
      return { type: 'unknown', name: `/${name}` };
  }
}

/** The outbox body of a Telegram delivery: the message text. */
export function telegramMessage(n: Notification): { text: string } {
  const title = `${n.title}${n.symbol ? ` (${n.symbol})` : ''}`;
  const footer = `audit #${n.seq} at ${n.at}`;
  const room = TELEGRAM_TEXT_MAX - title.length - footer.length - 2;
  const text = n.text.length > room ? `${n.text.slice(0, room - 1)}…` : n.text;
  return { text: `${title}\n${text}\n${footer}` };
}

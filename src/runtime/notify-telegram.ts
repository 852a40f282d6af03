/**
 * `tcs notify`'s Telegram side: TELEGRAM_BOT_TOKEN (the bot BotFather made), TELEGRAM_CHAT_IDS (the
 * only chats told or heard), TELEGRAM_KINDS (optional filter) and TELEGRAM_API_ROOT (another Bot API
 * server; tests point it at a fake). The bot's commands act through the REST API's ControlPlane on
 * the store as the API sees it: signed under CONTROL_SECRET, and trusted only while it is the store
 * this process has been following (application/trusted-control.ts), so a command never acts on a
 * replaced or rolled-back store. The token is never in an error or a log line.
 */
import { createTelegramBot } from '../adapters/notify/telegram-bot.js';
import type { TelegramBot } from '../adapters/notify/telegram-bot.js';
import { authenticatedStore } from '../application/authenticated-store.js';
import { ControlPlane } from '../application/control-plane.js';
import { lastKillResetEpoch } from '../application/kill-reset-proof.js';
import { withControl } from '../application/store-views.js';
import { REFUSALS_PER_MINUTE, TelegramCommands } from '../application/telegram-commands.js';
import { trustedControl } from '../application/trusted-control.js';
import { parseInstruments, DEFAULT_SYMBOLS } from '../domain/instruments.js';
import { NOTIFICATION_KINDS } from '../domain/notifications/select.js';
import type { NotificationKind } from '../domain/notifications/select.js';
import { parseChatIds, telegramTarget } from '../domain/notifications/telegram.js';
import type { TelegramTarget } from '../domain/notifications/telegram.js';
import { NO_MEMORY } from '../domain/store-identity.js';
import { systemClock } from '../ports/clock.js';
import { DEFAULT_COMMAND_QUEUE_MAX } from '../ports/command-queue.js';
import type { Store } from '../ports/store.js';
import { openArchive } from './audit-archive.js';
import { ConfigError, readControlSecret, readInt } from './config.js';

export interface TelegramConfig {
  token: string;
  apiRoot: string | undefined;
  targets: TelegramTarget[];
}

/** null when TELEGRAM_BOT_TOKEN is not set (Telegram off). */
export function readTelegramConfig(env: NodeJS.ProcessEnv): TelegramConfig | null {
  const token = env.TELEGRAM_BOT_TOKEN?.trim() ?? '';
  if (token === '') return null;
  // The shape BotFather gives (`<bot id>:<secret>`); the value itself is never echoed.
  if (!/^\d+:[\w-]{10,}$/.test(token))
    throw new ConfigError('TELEGRAM_BOT_TOKEN is not a bot token (<bot id>:<secret>, as BotFather gives it)');
  let chats: string[];
  try {
    chats = parseChatIds(env.TELEGRAM_CHAT_IDS ?? '');
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const kinds = readKinds(env.TELEGRAM_KINDS?.trim() ?? '');
  const root = env.TELEGRAM_API_ROOT?.trim().replace(/\/+$/, '') || undefined;
  if (root !== undefined && !/^https?:\/\/[^/]/.test(root))
    throw new ConfigError('TELEGRAM_API_ROOT must be an http(s) URL (default https://api.telegram.org)');
  return { token, apiRoot: root, targets: chats.map((c) => telegramTarget(c, kinds)) };
}

function readKinds(text: string): NotificationKind[] | null {
  if (text === '') return null;
  return text.split(/[\s,]+/).map((k) => {
    if (!(NOTIFICATION_KINDS as readonly string[]).includes(k))
      throw new ConfigError(`TELEGRAM_KINDS: unknown kind "${k}" (known: ${NOTIFICATION_KINDS.join(', ')})`);
    return k as NotificationKind;
  });
}

/** The bot over `raw` (the notifier's store), its commands acting as the API would. */
export function telegramBot(
  env: NodeJS.ProcessEnv,
  config: TelegramConfig,
  raw: Store,
  onError: (message: string) => void,
): TelegramBot {
  let instruments;
  try {
    instruments = parseInstruments(env.SYMBOLS ?? DEFAULT_SYMBOLS);
  } catch (err) {
    throw new ConfigError(`SYMBOLS: ${(err as Error).message}`);
  }
  const signed = authenticatedStore(raw, readControlSecret(env));
  const trusted = trustedControl(signed.control, {
    memory: NO_MEMORY,
    events: signed.events,
    lastResetEpoch: () => lastKillResetEpoch(signed.events),
    archivedHash: (seq) => openArchive(env).hashAt(seq),
  });
  const store = withControl(signed, trusted);
  const queueMax = readInt(env, 'COMMAND_QUEUE_MAX', DEFAULT_COMMAND_QUEUE_MAX, 1, 1_000_000);
  const plane = new ControlPlane(store, instruments, systemClock, undefined, undefined, queueMax);
  const commands = new TelegramCommands({
    plane,
    store,
    allowed: config.targets.map((t) => t.chatId),
    clock: systemClock,
    onUnaudited: (total) => onError(`refusals beyond ${REFUSALS_PER_MINUTE} a minute not audited: ${total} so far`),
  });
  return createTelegramBot({
    token: config.token,
    ...(config.apiRoot ? { apiRoot: config.apiRoot } : {}),
    commands,
    onError,
  });
}

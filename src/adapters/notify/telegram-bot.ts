/**
 * The Telegram bot on grammY: long polling for the chats' commands (answered by
 * application/telegram-commands.ts through ports/chat-commands.ts, which decides who is heard) and a sender for the notifier's
 * Telegram deliveries. `apiRoot` points it at another Bot API server (a local one, or a test's fake).
 *
 * The token is in every request URL: it is never logged. Errors are told to `onError` with the
 * token cut out of their text, and a send failure is recorded as `Telegram <code>` or `unreachable`.
 * Sending uses a client of its own with a short timeout, so a Bot API that hangs delays one
 * notifier round by at most SEND_TIMEOUT_S, never the polling or the trading process.
 */
import { Api, Bot, GrammyError, InlineKeyboard } from 'grammy';
import type { ChatCommands, ChatReply } from '../../ports/chat-commands.js';

/** Long polling: the Bot API holds a getUpdates this long when there is nothing to deliver. */
const POLL_TIMEOUT_S = 25;
/** Every call but getUpdates is done well within this. */
const SEND_TIMEOUT_S = 10;
/** The button under a kill's confirmation sends this, then the code. */
const CONFIRM_DATA = 'kill-confirm:';

export interface TelegramBotOptions {
  token: string;
  /** Default: https://api.telegram.org. */
  apiRoot?: string;
  commands: ChatCommands;
  onError: (message: string) => void;
}

export interface TelegramBot {
  /** Sends a notification: null when Telegram accepted it, else what to record. */
  send(chatId: string, text: string): Promise<string | null>;
  /** Polls until stop(); rejects if the Bot API refuses the token (401) or another poller holds it (409). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createTelegramBot(options: TelegramBotOptions): TelegramBot {
  const { token, commands } = options;
  const client = options.apiRoot ? { apiRoot: options.apiRoot } : {};
  // getUpdates waits up to POLL_TIMEOUT_S by design: its client allows for that.
  const bot = new Bot(token, { client: { ...client, timeoutSeconds: POLL_TIMEOUT_S + SEND_TIMEOUT_S } });
  const api = new Api(token, { ...client, timeoutSeconds: SEND_TIMEOUT_S });
  const redact = (err: unknown) => (err instanceof Error ? err.message : String(err)).split(token).join('<token>');
  const tell = (what: string, err: unknown) => options.onError(`${what}: ${redact(err)}`);

  const answer = async (chatId: string, reply: ChatReply) => {
    const markup = reply.confirm
      ? { reply_markup: new InlineKeyboard().text('Confirm the kill', `${CONFIRM_DATA}${reply.confirm}`) }
      : {};
    await bot.api.sendMessage(chatId, reply.text, markup);
  };
  /** A command that failed (a store away): an allowed chat is told it was not done. */
  const failed = async (chatId: string, err: unknown) => {
    tell('telegram command failed', err);
    if (commands.allows(chatId)) await answer(chatId, { text: `Not done: ${redact(err)}` });
  };

  bot.on('message', async (ctx) => {
    const chatId = String(ctx.chat.id);
    try {
      const reply = await commands.message(chatId, ctx.message.text ?? '');
      if (reply) await answer(chatId, reply);
    } catch (err) {
      await failed(chatId, err);
    }
  });
  bot.on('callback_query:data', async (ctx) => {
    const chat = ctx.callbackQuery.message?.chat.id;
    if (chat === undefined || !ctx.callbackQuery.data.startsWith(CONFIRM_DATA)) return;
    const chatId = String(chat);
    try {
      const reply = await commands.confirm(chatId, ctx.callbackQuery.data.slice(CONFIRM_DATA.length));
      if (!reply) return; // not an allowed chat: nothing at all, not even the button's spinner stopped
      await ctx.answerCallbackQuery();
      await answer(chatId, reply);
    } catch (err) {
      await failed(chatId, err);
    }
  });
  bot.catch((err) => tell('telegram update failed', err.error));

  return {
    async send(chatId, text) {
      try {
        await api.sendMessage(chatId, text);
        return null;
      } catch (err) {
        return err instanceof GrammyError ? `Telegram ${err.error_code}` : 'unreachable';
      }
    },
    async start() {
      try {
        await bot.start({ timeout: POLL_TIMEOUT_S, allowed_updates: ['message', 'callback_query'] });
      } catch (err) {
        throw new Error(`telegram polling stopped: ${redact(err)}`);
      }
    },
    stop: () => bot.stop(),
  };
}

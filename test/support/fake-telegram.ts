/**
 * A local fake of the Telegram Bot API for tests, on loopback: grammY's `apiRoot` is pointed at it.
 * It answers the methods the bot calls (getMe, deleteWebhook, getUpdates with long polling,
 * sendMessage, answerCallbackQuery; any other: true) in the real shapes (`{ ok, result }`, errors
 * as `{ ok: false, error_code, description }`), refuses any other token with 401, and records every
 * call. A test plays the users: `userSends` and `userPresses` queue the updates a chat would make.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BotCall {
  method: string;
  params: Record<string, unknown>;
}

export interface SentMessage {
  chat_id: string;
  text: string;
  reply_markup?: { inline_keyboard?: { text: string; callback_data?: string }[][] };
}

export interface FakeTelegram {
  /** `http://127.0.0.1:<port>`: the apiRoot (no trailing slash). */
  apiRoot: string;
  calls: BotCall[];
  sent: SentMessage[];
  userSends(chatId: number, text: string): void;
  userPresses(chatId: number, data: string): void;
  /** Resolves once `check()` holds (re-checked on every call the bot makes), or rejects after `ms`. */
  until(check: () => boolean, ms: number, what: string): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeTelegram(token: string): Promise<FakeTelegram> {
  const calls: BotCall[] = [];
  const sent: SentMessage[] = [];
  const updates: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  const poke = () => [...waiters].forEach((w) => w());
  let nextUpdate = 1;
  let nextMessage = 1;
  const now = () => Math.floor(Date.now() / 1000);
  const chat = (id: number) => ({ id, type: id < 0 ? 'group' : 'private', first_name: `user${id}` });
  const user = (id: number) => ({ id: Math.abs(id), is_bot: false, first_name: `user${id}` });

  const answer = async (method: string, params: Record<string, unknown>): Promise<unknown> => {
    switch (method) {
      case 'getMe':
        return { id: 4242, is_bot: true, first_name: 'tcs', username: 'tcs_test_bot', can_join_groups: true };
      case 'getUpdates': {
        const offset = Number(params.offset ?? 0);
        const pending = () => updates.filter((u) => Number(u.update_id) >= offset);
        // Long polling: hold until an update comes or the timeout passes, as the real server does.
        const timeoutMs = Number(params.timeout ?? 0) * 1000;
        if (!pending().length && timeoutMs > 0) {
          await new Promise<void>((resolve) => {
            const wake = () => void (pending().length && finish());
            const finish = () => (waiters.delete(wake), clearTimeout(timer), resolve());
            const timer = setTimeout(finish, timeoutMs);
            timer.unref();
            waiters.add(wake);
          });
        }
        return pending().slice(0, Number(params.limit ?? 100));
      }
      case 'sendMessage': {
        sent.push({
          chat_id: String(params.chat_id),
          text: String(params.text),
          ...(params.reply_markup ? { reply_markup: params.reply_markup as SentMessage['reply_markup'] } : {}),
        });
        return { message_id: nextMessage++, date: now(), chat: chat(Number(params.chat_id)), text: params.text };
      }
      default:
        return true;
    }
  };

  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      const reply = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (!m || m[1] !== token) return reply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const params = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      calls.push({ method: m[2]!, params });
      poke();
      void answer(m[2]!, params).then((result) => {
        poke();
        reply(200, { ok: true, result });
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const apiRoot = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const push = (update: Record<string, unknown>) => {
    updates.push({ update_id: nextUpdate++, ...update });
    poke();
  };

  return {
    apiRoot,
    calls,
    sent,
    userSends(chatId, text) {
      const command = /^\/\w+(@\w+)?/.exec(text);
      push({
        message: {
          message_id: nextMessage++,
          date: now(),
          chat: chat(chatId),
          from: user(chatId),
          text,
          ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] } : {}),
        },
      });
    },
    userPresses(chatId, data) {
      push({
        callback_query: {
          id: String(nextUpdate),
          from: user(chatId),
          chat_instance: `ci${chatId}`,
          message: { message_id: nextMessage++, date: now(), chat: chat(chatId), text: '…' },
          data,
        },
      });
    },
    until(check, ms, what) {
      if (check()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const done = () => {
          if (!check()) return;
          waiters.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(done);
          reject(new Error(`${what}: not within ${ms} ms`));
        }, ms);
        waiters.add(done);
      });
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * The grammY bot against the local fake Bot API (test/support/fake-telegram.ts), on a real SQLite
 * store and the API's ControlPlane: commands from an allowed chat are answered, a kill's button
 * confirms it, a stranger is sent nothing; a notification is sent, and a refusal is recorded as
 * `Telegram <code>`; the token is in no error text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createTelegramBot } from '../../../src/adapters/notify/telegram-bot.js';
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.js';
import { ControlPlane } from '../../../src/application/control-plane.js';
import { TelegramCommands } from '../../../src/application/telegram-commands.js';
import { parseInstruments } from '../../../src/domain/instruments.js';
import { systemClock } from '../../../src/ports/clock.js';
import { signedWith } from '../../support/control-secret.js';
import { startFakeTelegram } from '../../support/fake-telegram.js';
import { initialised } from '../../support/stores.js';

const TOKEN = '4242:fake-token-never-logged';
const dir = mkdtempSync(join(tmpdir(), 'tcs-telegram-bot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('answers an allowed chat, confirms a kill by its button, and sends a stranger nothing', async () => {
  const fake = await startFakeTelegram(TOKEN);
  const store = signedWith(await initialised(await openSqliteStore({ path: join(dir, 'bot.db') })));
  const errors: string[] = [];
  const plane = new ControlPlane(store, parseInstruments('BTCUSDT'), systemClock);
  const commands = new TelegramCommands({ plane, store, allowed: ['111'], clock: systemClock });
  const bot = createTelegramBot({ token: TOKEN, apiRoot: fake.apiRoot, commands, onError: (m) => errors.push(m) });
  const polling = bot.start();
  try {
    const to = (chat: string) => fake.sent.filter((s) => s.chat_id === chat);
    fake.userSends(999, '/pause');
    fake.userSends(111, '/status');
    await fake.until(() => to('111').length === 1, 10_000, 'the status reply');
    expect(to('111')[0]!.text).toMatch(/^State: running/);

    fake.userSends(111, '/kill drill');
    await fake.until(() => to('111').length === 2, 10_000, 'the kill confirmation');
    const button = to('111')[1]!.reply_markup?.inline_keyboard?.[0]?.[0];
    expect(button?.callback_data).toMatch(/^kill-confirm:[0-9A-F]{6}$/);
    fake.userPresses(999, button!.callback_data!); // a stranger with the button's data: nothing
    fake.userPresses(111, button!.callback_data!);
    await fake.until(() => to('111').length === 3, 10_000, 'the kill reply');
    expect(to('111')[2]!.text).toMatch(/^Killed\. Reason: drill/);
    expect((await store.control.read()).state).toBe('killed');
    expect(fake.calls.filter((c) => c.method === 'answerCallbackQuery')).toHaveLength(1);
    expect(to('999')).toEqual([]);

    expect(await bot.send('111', 'Trading killed')).toBeNull();
    expect(fake.sent.at(-1)).toEqual({ chat_id: '111', text: 'Trading killed' });
    const wrong = createTelegramBot({ token: '1:wrong', apiRoot: fake.apiRoot, commands, onError: () => {} });
    expect(await wrong.send('111', 'x')).toBe('Telegram 401');
    expect(errors).toEqual([]);
  } finally {
    await bot.stop();
    await polling;
    await store.close();
    await fake.close();
  }
}, 30_000);

it('a Bot API that refuses the token stops polling with an error that does not hold the token', async () => {
  const fake = await startFakeTelegram('1:other');
  const store = signedWith(await initialised(await openSqliteStore({ path: join(dir, 'refused.db') })));
  try {
    const plane = new ControlPlane(store, parseInstruments('BTCUSDT'), systemClock);
    const commands = new TelegramCommands({ plane, store, allowed: ['111'], clock: systemClock });
    const bot = createTelegramBot({ token: TOKEN, apiRoot: fake.apiRoot, commands, onError: () => {} });
    const err = await bot.start().then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/^telegram polling stopped: .*401/);
    expect(err?.message).not.toContain('fake-token');
  } finally {
    await store.close();
    await fake.close();
  }
});

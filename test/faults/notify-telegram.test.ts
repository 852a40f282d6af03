/**
 * `tcs notify` with a Telegram bot as a real process (issue 35, "Done when"), its Bot API a local
 * fake of the test's own (TELEGRAM_API_ROOT), on a real store (SQLite and Redis): the allow-listed chat pauses,
 * asks for a kill, confirms it with the button, and is told of both by notification; another chat
 * is sent nothing, changes nothing, and each of its commands is audited as refused. The token is in
 * no line the process writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.js';
import type { Store } from '../../src/ports/store.js';
import { signedWith } from '../support/control-secret.js';
import { startFakeTelegram } from '../support/fake-telegram.js';
import { exitWithin, startTcs } from '../support/processes.js';
import { initialised, openTestStore, STORE_KINDS } from '../support/stores.js';

const TOKEN = '4242:AAHtest-token-never-in-a-log-line';
const dir = mkdtempSync(join(tmpdir(), 'tcs-notify-telegram-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Re-checks `check` until it holds, within `ms` (store state: no event to wait on). */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const state = async (store: Store) => (await store.control.read()).state;

it.each(STORE_KINDS)(
  'on %s: an allowed chat pauses and kills with confirmation and is notified; another chat gets nothing and is audited as refused',
  async (kind) => {
    const fake = await startFakeTelegram(TOKEN);
    const opened = await openTestStore(kind);
    const store = signedWith(opened.store);
    const notifier = startTcs(
      ['notify'],
      {
        STORE_URL: opened.url,
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_CHAT_IDS: '111',
        TELEGRAM_API_ROOT: fake.apiRoot,
        SYMBOLS: 'BTCUSDT,ETHUSDT',
      },
      dir,
    );
    const to = (chat: string) => fake.sent.filter((s) => s.chat_id === chat);
    try {
      await fake.until(() => fake.calls.some((c) => c.method === 'getUpdates'), 30_000, 'the bot polls');

      // A stranger: every command refused, nothing sent, nothing changed.
      for (const text of ['/pause', '/kill now', '/status']) fake.userSends(999, text);
      const refusals = async () =>
        (await store.events.query({ limit: 50 })).filter((e) => e.body.call === 'telegram_refused');
      await until(async () => (await refusals()).length === 3, 15_000, 'the refusals are audited');
      expect((await refusals()).map((e) => [e.body.actor, e.body.command]).reverse()).toEqual([
        ['telegram:999', '/pause'],
        ['telegram:999', '/kill'],
        ['telegram:999', '/status'],
      ]);
      expect(await state(store)).toBe('running');

      // The allowed chat pauses: the control state changes, audited with the chat as the actor.
      fake.userSends(111, '/pause maintenance');
      await fake.until(() => to('111').some((m) => m.text.startsWith('Paused')), 15_000, 'the pause reply');
      expect(await state(store)).toBe('paused');

      // A kill is asked, then confirmed with the button.
      fake.userSends(111, '/kill exchange down');
      await fake.until(() => to('111').some((m) => m.reply_markup), 15_000, 'the kill confirmation');
      expect(await state(store)).toBe('paused');
      const button = to('111').find((m) => m.reply_markup)!.reply_markup!.inline_keyboard![0]![0]!;
      fake.userPresses(111, button.callback_data!);
      await fake.until(() => to('111').some((m) => m.text.startsWith('Killed')), 15_000, 'the kill reply');
      expect(await store.control.read()).toMatchObject({ state: 'killed', reason: 'exchange down' });
      const control = (await store.events.query({ limit: 50 })).filter((e) => e.kind === 'control');
      expect(control.map((e) => [e.body.event, e.body.actor])).toEqual([
        ['control.kill', 'telegram:111'],
        ['control.pause', 'telegram:111'],
      ]);

      // Both changes come back to the chat as notifications, through the outbox.
      await fake.until(
        () => to('111').some((m) => m.text.startsWith('Trading killed\ncontrol.kill by telegram:111: exchange down')),
        15_000,
        'the kill notification',
      );
      expect(to('111').some((m) => m.text.startsWith('Control: control.pause\n'))).toBe(true);
      expect(to('999')).toEqual([]);
      expect(fake.sent.every((m) => m.chat_id === '111')).toBe(true);

      await notifier.stop('SIGTERM');
      expect((await notifier.exited).code).toBe(0);
      const out = notifier.stdout() + notifier.stderr();
      expect(out).toContain('notifier_started');
      expect(out).not.toContain('never-in-a-log-line');
    } finally {
      await notifier.stop('SIGKILL').catch(() => undefined);
      await opened.cleanup();
      await fake.close();
    }
  },
  120_000,
);

it('refuses to start with a token but no chat ids, or with a malformed token it does not echo (exit 2)', async () => {
  const path = join(dir, 'config.db');
  const noChats = startTcs(['notify'], { STORE_URL: `sqlite:${path}`, TELEGRAM_BOT_TOKEN: TOKEN }, dir);
  expect((await exitWithin(noChats, 20_000)).code).toBe(2);
  expect(noChats.stderr()).toContain('TELEGRAM_CHAT_IDS is empty');
  const bad = startTcs(
    ['notify'],
    { STORE_URL: `sqlite:${path}`, TELEGRAM_BOT_TOKEN: 'not-a-token-secretish', TELEGRAM_CHAT_IDS: '111' },
    dir,
  );
  expect((await exitWithin(bad, 20_000)).code).toBe(2);
  expect(bad.stderr()).toContain('TELEGRAM_BOT_TOKEN is not a bot token');
  expect(bad.stderr()).not.toContain('secretish');
}, 60_000);

it('stops (exit 1) when the Bot API refuses the token, saying so without the token', async () => {
  const fake = await startFakeTelegram('1:another-token');
  const path = join(dir, 'refused.db');
  const store = await initialised(await openSqliteStore({ path }));
  try {
    const notifier = startTcs(
      ['notify'],
      {
        STORE_URL: `sqlite:${path}`,
        TELEGRAM_BOT_TOKEN: TOKEN,
        TELEGRAM_CHAT_IDS: '111',
        TELEGRAM_API_ROOT: fake.apiRoot,
      },
      dir,
    );
    expect((await exitWithin(notifier, 30_000)).code).toBe(1);
    expect(notifier.stderr()).toContain('notifier_stopped');
    expect(notifier.stderr()).toContain('401');
    expect(notifier.stdout() + notifier.stderr()).not.toContain('never-in-a-log-line');
  } finally {
    await store.close();
    await fake.close();
  }
}, 60_000);

/**
 * Telegram rules, pure: the allow-list TELEGRAM_CHAT_IDS names, a command's text read as one of the
 * five commands (or not), and what a notification looks like as a chat message.
 */
import { describe, expect, it } from 'vitest';
import {
  parseChatIds,
  parseTelegramCommand,
  telegramMessage,
  telegramTarget,
} from '../../../src/domain/notifications/telegram.js';
import { selectNotifications } from '../../../src/domain/notifications/select.js';

describe('parseChatIds', () => {
  it('reads ids separated by commas or spaces, groups (negative) included, without repeats', () => {
    expect(parseChatIds('111, -1002233 111  42')).toEqual(['111', '-1002233', '42']);
  });
  it('refuses what is not a chat id, naming its position and not echoing more than needed', () => {
    expect(() => parseChatIds('111,@someone')).toThrow(/TELEGRAM_CHAT_IDS: item 2 is not a chat id/);
    expect(() => parseChatIds('  ')).toThrow(/TELEGRAM_CHAT_IDS is empty/);
  });
});

describe('telegramTarget', () => {
  it('names a chat by a stable hash (never by its id in logs), with a kinds filter', () => {
    const a = telegramTarget('111', null);
    expect(a).toEqual({ id: telegramTarget('111', null).id, format: 'telegram', chatId: '111', kinds: null });
    expect(a.id).not.toContain('111');
    expect(a.id).not.toBe(telegramTarget('112', null).id);
  });
});

describe('parseTelegramCommand', () => {
  it('reads the five commands, the kill reason and a confirmation code', () => {
    expect(parseTelegramCommand('/status')).toEqual({ type: 'status' });
    expect(parseTelegramCommand('/positions@tcs_bot')).toEqual({ type: 'positions' });
    expect(parseTelegramCommand('/pause maintenance window')).toEqual({ type: 'pause', reason: 'maintenance window' });
    expect(parseTelegramCommand('/resume')).toEqual({ type: 'resume', reason: null });
    expect(parseTelegramCommand('/kill  exchange down ')).toEqual({ type: 'kill', reason: 'exchange down' });
    expect(parseTelegramCommand('/kill')).toEqual({ type: 'kill', reason: null });
    expect(parseTelegramCommand('/confirm 4F2A9C')).toEqual({ type: 'confirm', code: '4F2A9C' });
    expect(parseTelegramCommand('/help')).toEqual({ type: 'help' });
    expect(parseTelegramCommand('/start')).toEqual({ type: 'help' });
  });
  it('tells an unknown command from plain text', () => {
    expect(parseTelegramCommand('/flatten')).toEqual({ type: 'unknown', name: '/flatten' });
    expect(parseTelegramCommand('hello')).toBeNull();
  });
  it('cuts a reason to 500 characters (the API bound), so a paste cannot bloat the audit trail', () => {
    const got = parseTelegramCommand(`/kill ${'x'.repeat(900)}`);
    expect(got).toEqual({ type: 'kill', reason: 'x'.repeat(500) });
  });
});

describe('telegramMessage', () => {
  it('a kill reads as a title line, who and why, and where in the audit trail', () => {
    const [n] = selectNotifications({
      seq: 1042,
      at: '2026-11-28T03:12:44.120Z',
      kind: 'control',
      symbol: null,
      hash: 'abc',
      body: { event: 'control.kill', outcome: 'changed', actor: 'telegram:111', reason: 'exchange down' },
    });
    expect(telegramMessage(n!)).toEqual({
      text: 'Trading killed\ncontrol.kill by telegram:111: exchange down\naudit #1042 at 2026-11-28T03:12:44.120Z',
    });
  });
  it('names the symbol and stays under the 4096-character limit of a Telegram message', () => {
    const [n] = selectNotifications({
      seq: 7,
      at: '2026-11-28T03:12:44.120Z',
      kind: 'order_filled',
      symbol: 'BTC/USDT',
      hash: 'h',
      body: { symbol: 'BTC/USDT', side: 'BUY', qty: 1, price: 2, client_order_id: 'y'.repeat(6000), source: 'resting' },
    });
    const { text } = telegramMessage(n!);
    expect(text.startsWith('Resting order filled (BTC/USDT)\n')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(4096);
  });
});

/**
 * The Telegram bot's commands on a real store, SQLite and Redis (signed as the processes sign it) and the same
 * ControlPlane the REST API uses, with a clock of the test's own: an allow-listed chat pauses,
 * resumes, reads status and positions and kills only after confirming within 60 s, every change
 * audited with the chat as the actor; any other chat is answered nothing, changes nothing and is
 * audited as refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ControlPlane } from '../../src/application/control-plane.js';
import { REFUSALS_PER_MINUTE, TelegramCommands } from '../../src/application/telegram-commands.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import type { Store } from '../../src/ports/store.js';
import { signedWith } from '../support/control-secret.js';
import { openTestStore, STORE_KINDS } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

describe.each(STORE_KINDS)('on %s', (kind) => {
  let opened: TestStore;
  let store: Store;
  let bot: TelegramCommands;
  let mono = 0;
  let unaudited: number[] = [];
  const clock = { now: () => Date.UTC(2026, 10, 28, 3) + mono, monotonic: () => mono };

  beforeEach(async () => {
    mono = 0;
    opened = await openTestStore(kind);
    store = signedWith(opened.store);
    const instruments = parseInstruments('BTCUSDT,ETHUSDT');
    const plane = new ControlPlane(store, instruments, clock);
    unaudited = [];
    bot = new TelegramCommands({
      plane,
      store,
      allowed: ['111', '222'],
      clock,
      onUnaudited: (total) => unaudited.push(total),
    });
  });
  afterEach(() => opened.cleanup());

  const entries = async (kind: string) => (await store.events.query({ limit: 100 })).filter((e) => e.kind === kind);
  const codeOf = (reply: { confirm?: string } | null) => reply?.confirm ?? '';

  describe('an allow-listed chat', () => {
    it('pauses and resumes through the control plane, audited with the chat as the actor', async () => {
      const paused = await bot.message('111', '/pause maintenance');
      expect(paused?.text).toContain('Paused');
      expect((await store.control.read()).state).toBe('paused');
      expect((await bot.message('111', '/pause'))?.text).toContain('Already paused');
      expect((await bot.message('222', '/resume'))?.text).toContain('Running');
      expect((await store.control.read()).state).toBe('running');
      const control = await entries('control');
      expect(control.map((e) => [e.body.event, e.body.actor, e.body.outcome])).toEqual([
        ['control.resume', 'telegram:222', 'changed'],
        ['control.pause', 'telegram:111', 'unchanged'],
        ['control.pause', 'telegram:111', 'changed'],
      ]);
      expect(control[2]!.body.reason).toBe('maintenance');
    });

    it('kills only with a reason and after confirming within 60 s, by the chat that asked', async () => {
      expect((await bot.message('111', '/kill'))?.text).toContain('needs a reason');
      const asked = await bot.message('111', '/kill exchange down');
      expect(asked?.text).toContain('exchange down');
      const code = codeOf(asked);
      expect(code).toMatch(/^[0-9A-F]{6}$/);
      expect((await store.control.read()).state).toBe('running'); // nothing yet
      expect((await bot.message('222', `/confirm ${code}`))?.text).toContain('No kill is waiting'); // another chat's code
      expect((await bot.message('111', '/confirm 000000'))?.text).toContain('No kill is waiting');
      mono += 60_001;
      expect((await bot.message('111', `/confirm ${code}`))?.text).toContain('No kill is waiting'); // expired
      expect((await store.control.read()).state).toBe('running');

      const again = codeOf(await bot.message('111', '/kill exchange down'));
      mono += 59_000;
      const killed = await bot.confirm('111', again);
      expect(killed?.text).toContain('Killed');
      const record = await store.control.read();
      expect(record).toMatchObject({ state: 'killed', reason: 'exchange down' });
      const [kill] = await entries('control');
      expect(kill!.body).toMatchObject({ event: 'control.kill', actor: 'telegram:111', outcome: 'changed' });
      // Used once: the same code does nothing more.
      expect((await bot.confirm('111', again))?.text).toContain('No kill is waiting');
      expect((await bot.message('111', '/resume'))?.text).toContain('killed');
    });

    it('reads the state and the published positions', async () => {
      expect((await bot.message('111', '/status'))?.text).toMatch(/^State: running/);
      expect((await bot.message('111', '/positions'))?.text).toContain('no portfolio yet');
      await writeDocument(store.kv, PORTFOLIO_KEY, {
        nav: 95_000,
        peakNav: 100_000,
        cash: 90_000,
        realizedPnl: 0,
        unrealizedPnl: 500,
        fundingPnl: 0,
        feesPaid: 0,
        ts: Date.UTC(2026, 0, 5, 12),
        positions: [
          {
            symbol: 'BTCUSDT',
            kind: 'perp',
            qty: 0.5,
            entryPrice: 60_000,
            markPrice: 61_000,
            unrealizedPnl: 500,
            realizedPnl: 0,
          },
          {
            symbol: 'ETHUSDT',
            kind: 'perp',
            qty: 0,
            entryPrice: 0,
            markPrice: 3_000,
            unrealizedPnl: 0,
            realizedPnl: 0,
          },
        ],
        openOrders: [],
      });
      const text = (await bot.message('111', '/positions'))?.text ?? '';
      expect(text).toContain('NAV 95000.00');
      expect(text).toContain('BTCUSDT long 0.5 @ 60000 (mark 61000, uPnL 500.00)');
      expect(text).not.toContain('ETHUSDT'); // flat
      expect(text).toContain('2026-01-05T12:00:00.000Z');
    });

    it('answers an unknown command with the list, and plain text with nothing', async () => {
      expect((await bot.message('111', '/flatten'))?.text).toContain('/kill <reason>');
      expect(await bot.message('111', 'hello')).toBeNull();
    });
  });

  describe('any other chat', () => {
    it('gets nothing, changes nothing, and each command is audited as refused', async () => {
      for (const text of ['/pause', '/kill now', '/status', '/positions', 'hello', '/start']) {
        expect(await bot.message('999', text)).toBeNull();
      }
      expect(await bot.confirm('999', 'ABCDEF')).toBeNull();
      expect((await store.control.read()).state).toBe('running');
      const refused = await entries('control_call');
      expect(refused.map((e) => e.body.command).reverse()).toEqual([
        '/pause',
        '/kill',
        '/status',
        '/positions',
        null,
        '/start',
        '/confirm',
      ]);
      expect(refused.every((e) => e.body.call === 'telegram_refused' && e.body.actor === 'telegram:999')).toBe(true);
      // Nothing the stranger wrote beyond the command's name reaches the trail.
      expect(JSON.stringify(refused)).not.toContain('now');
      expect(await entries('control')).toEqual([]);
    });

    it('cannot flood the audit trail: refusals beyond the minute budget are counted, not written', async () => {
      for (let i = 0; i < REFUSALS_PER_MINUTE + 5; i++) await bot.message('999', '/kill');
      expect(await entries('control_call')).toHaveLength(REFUSALS_PER_MINUTE);
      expect(bot.refusalsNotAudited()).toBe(5);
      expect(unaudited).toEqual([1]); // told once in the minute, not per refusal
      mono += 60_000;
      await bot.message('999', '/kill');
      expect(await entries('control_call')).toHaveLength(REFUSALS_PER_MINUTE + 1);
    });
  });
});

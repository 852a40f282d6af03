/**
 * The Telegram bot's commands, for the chats TELEGRAM_CHAT_IDS allows and no other: `/status` and
 * `/positions` read what the REST API serves (the control record, the published portfolio);
 * `/pause`, `/resume` and `/kill` go through the same ControlPlane as the REST API, with the chat as
 * the actor (`telegram:<chat id>`), so they are audited as any control call. A kill needs a reason
 * and a confirmation from the same chat within CONFIRM_MS (a code, or the button that carries it),
 * so a slip of the thumb kills nothing.
 *
 * A chat not on the list is answered nothing (null) and changes nothing; each of its messages is
 * audited as refused (`control_call`, call `telegram_refused`, the command's name only: nothing a
 * stranger wrote reaches the trail), at most REFUSALS_PER_MINUTE a minute so a stranger cannot flood
 * the trail; those beyond it are counted.
 */
import { randomBytes } from 'node:crypto';
import { parseTelegramCommand } from '../domain/notifications/telegram.js';
import { PORTFOLIO_KEY } from '../domain/runtime-documents.js';
import type { PortfolioDocument } from '../domain/runtime-documents.js';
import type { ChatCommands, ChatReply } from '../ports/chat-commands.js';
import type { Clock } from '../ports/clock.js';
import { monotonicNow } from '../ports/clock.js';
import { readDocument } from '../ports/documents.js';
import type { Store } from '../ports/store.js';
import type { ControlPlane } from './control-plane.js';
import { DEFAULT_REASONS } from './control-plane.js';

/** A kill asked for is confirmed within this, or asked again. */
export const CONFIRM_MS = 60_000;
export const REFUSALS_PER_MINUTE = 20;

export interface TelegramCommandsDeps {
  plane: ControlPlane;
  store: Pick<Store, 'kv' | 'events'>;
  /** Chat ids (as text) that are told and heard. */
  allowed: readonly string[];
  clock: Clock;
  /** Told once a minute while refusals go unaudited (the budget spent), with the total so far: for a log line. */
  onUnaudited?: (total: number) => void;
}

const HELP = [
  'Commands:',
  '/status: the control state',
  '/positions: the positions the trading process last published',
  '/pause [reason], /resume [reason]',
  '/kill <reason>: asks for a confirmation first',
].join('\n');

export class TelegramCommands implements ChatCommands {
  private readonly allowed: ReadonlySet<string>;
  /** chat → the kill it asked for and not yet confirmed. */
  private readonly pending = new Map<string, { code: string; reason: string; until: number }>();
  private refusalWindow = { start: Number.NEGATIVE_INFINITY, written: 0 };
  private dropped = 0;

  constructor(private readonly deps: TelegramCommandsDeps) {
    this.allowed = new Set(deps.allowed);
  }

  /** What to answer a message from `chatId`; null: nothing (not a command, or not an allowed chat). */
  async message(chatId: string, text: string): Promise<ChatReply | null> {
    const command = parseTelegramCommand(text);
    if (!this.allowed.has(chatId)) {
      await this.refuse(chatId, command === null ? null : commandName(text));
      return null;
    }
    if (command === null) return null;
    const actor = `telegram:${chatId}`;
    switch (command.type) {
      case 'status':
        return { text: await this.status() };
      case 'positions':
        return { text: await this.positions() };
      case 'pause':
      case 'resume':
        return { text: await this.transition(command.type, command.reason, actor) };
      case 'kill':
        return this.askKill(chatId, command.reason);
      case 'confirm':
        return this.confirm(chatId, command.code);
      case 'help':
        return { text: HELP };
      case 'unknown':
        return { text: `Unknown command ${command.name}.\n${HELP}` };
    }
  }

  /** `/confirm <code>` or the confirmation button: kills if this chat asked with this code in time. */
  async confirm(chatId: string, code: string): Promise<ChatReply | null> {
    if (!this.allowed.has(chatId)) {
      await this.refuse(chatId, '/confirm');
      return null;
    }
    const asked = this.pending.get(chatId);
    if (!asked || asked.code !== code || monotonicNow(this.deps.clock) > asked.until) {
      return { text: 'No kill is waiting under that code (a code lasts 60 s): send /kill <reason> again.' };
    }
    this.pending.delete(chatId);
    const result = await this.deps.plane.kill(asked.reason, `telegram:${chatId}`);
    const { reason, cancel_instructions } = result.value;
    return {
      text:
        `Killed. Reason: ${reason}\n` +
        `Cancels queued for ${cancel_instructions.length} symbol(s). Only a manual restart ` +
        '(tcs start --reset-kill) ends the killed state.',
    };
  }

  /** Whether `chatId` is on the allow-list (the adapter tells only those of a failure). */
  allows(chatId: string): boolean {
    return this.allowed.has(chatId);
  }

  /** Refusals not written to the audit trail because the minute's budget was spent. */
  refusalsNotAudited(): number {
    return this.dropped;
  }

  private askKill(chatId: string, reason: string | null): ChatReply {
    if (reason === null) return { text: 'A kill needs a reason: /kill <reason>' };
    const code = randomBytes(3).toString('hex').toUpperCase();
    this.pending.set(chatId, { code, reason, until: monotonicNow(this.deps.clock) + CONFIRM_MS });
    return {
      text: `Kill trading? Reason: ${reason}\nConfirm within 60 s: press the button or send /confirm ${code}`,
      confirm: code,
    };
  }

  private async transition(verb: 'pause' | 'resume', reason: string | null, actor: string): Promise<string> {
    const result = await this.deps.plane.transition(
      verb === 'pause'
        ? { type: 'control.pause', reason: reason ?? DEFAULT_REASONS.pause }
        : { type: 'control.resume', reason: reason ?? DEFAULT_REASONS.resume },
      actor,
    );
    if (!result.ok) return `Not done: ${result.message}`;
    const { state, changed, previous_state } = result.value;
    const name = state === 'paused' ? 'Paused' : 'Running';
    return changed ? `${name} (was ${previous_state}). Reason: ${result.value.reason ?? ''}` : `Already ${state}.`;
  }

  private async status(): Promise<string> {
    const r = await this.deps.plane.status();
    return `State: ${r.state} (epoch ${r.epoch})\nSince: ${r.changed_at}\nReason: ${r.reason ?? 'none'}`;
  }

  private async positions(): Promise<string> {
    const portfolio = await readDocument(this.deps.store.kv, PORTFOLIO_KEY);
    if (!portfolio) return 'The trading process has published no portfolio yet.';
    return positionsText(portfolio);
  }

  private async refuse(chatId: string, command: string | null): Promise<void> {
    const now = monotonicNow(this.deps.clock);
    if (now - this.refusalWindow.start >= 60_000) this.refusalWindow = { start: now, written: 0 };
    if (this.refusalWindow.written >= REFUSALS_PER_MINUTE) {
      this.dropped += 1;
      if (this.refusalWindow.written++ === REFUSALS_PER_MINUTE) this.deps.onUnaudited?.(this.dropped);
      return;
    }
    this.refusalWindow.written += 1;
    await this.deps.store.events.append({
      kind: 'control_call',
      at: new Date(this.deps.clock.now()).toISOString(),
      body: { call: 'telegram_refused', actor: `telegram:${chatId}`, command },
    });
  }
}

/** The command's name as sent (`/start`, not the `/help` it means), at most 32 characters. */
function commandName(text: string): string {
  return (/^\/[A-Za-z_]+/.exec(text.trim())?.[0] ?? '/').toLowerCase().slice(0, 32);
}

function positionsText(p: PortfolioDocument): string {
  const open = p.positions.filter((x) => x.qty !== 0);
  const head = `NAV ${p.nav.toFixed(2)} as of ${new Date(p.ts).toISOString()}`;
  if (!open.length) return `${head}\nNo open positions.`;
  const lines = open.map(
    (x) =>
      `${x.symbol} ${x.qty > 0 ? 'long' : 'short'} ${Math.abs(x.qty)} @ ${x.entryPrice} ` +
      `(mark ${x.markPrice}, uPnL ${x.unrealizedPnl.toFixed(2)})`,
  );
  return [head, ...lines].join('\n');
}

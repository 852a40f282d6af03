/**
 * Asking for the operator's drawdown reset, for every front end (POST /control/risk/reset and
 * `tcs risk reset`): the call is audited (`control_call`, call `risk_reset`, with the reason, who
 * asked and the drawdown the last published account showed), then queued as a `risk_reset` command.
 * The trading process, the one writer of the account, carries it out (src/application/risk-reset.ts)
 * while it trades, or when it next starts. Audit first: if it fails nothing is queued, so no reset
 * ever runs unaudited.
 */
import { randomUUID } from 'node:crypto';
import { PORTFOLIO_KEY } from '../domain/runtime-documents.js';
import { drawdown } from '../domain/risk/drawdown-guard.js';
import type { Clock } from '../ports/clock.js';
import { readDocument } from '../ports/documents.js';
import type { Store } from '../ports/store.js';

/** What the last published account showed when the reset was asked for (null before any). */
export interface DrawdownSeen {
  nav: number;
  peak_nav: number;
  drawdown: number;
}

export interface RiskResetRequested {
  action: 'risk_reset';
  reason: string;
  command_id: string;
  before: DrawdownSeen | null;
  message: string;
}

export async function requestRiskReset(
  store: Store,
  clock: Clock,
  reason: string,
  actor: string,
): Promise<RiskResetRequested> {
  const id = `risk-reset-${randomUUID()}`;
  const at = new Date(clock.now()).toISOString();
  const portfolio = await readDocument(store.kv, PORTFOLIO_KEY);
  const before =
    portfolio === null
      ? null
      : { nav: portfolio.nav, peak_nav: portfolio.peakNav, drawdown: drawdown(portfolio.nav, portfolio.peakNav) };
  await store.events.append({
    kind: 'control_call',
    at,
    symbol: null,
    body: { call: 'risk_reset', actor, reason, command_id: id, before },
  });
  await store.commands.enqueue({ id, type: 'risk_reset', payload: { reason, actor }, enqueued_at: at });
  return {
    action: 'risk_reset',
    reason,
    command_id: id,
    before,
    message: 'queued for the trading process: the drawdown reference (peak NAV) becomes the NAV when it runs it',
  };
}

/**
 * What the console shows of the risk engine's trading state (issue 20), from /health's `risk`
 * component (kept current by the stream's `health` events): the Health panel's row, the banner's
 * notice while `reducing` — only closes pass, and it ends only by the drawdown reset or the window,
 * so the notice says both — and the body of POST /control/risk/reset. Pure, tested without a browser.
 */
import { utc } from './format.js';
import type { Health } from './types.js';

export type RiskHealth = Health['components']['risk'];

/** The CLI's form of the reset, shown beside the console's button (a test holds it to `tcs risk --help`). */
export const RISK_RESET_COMMAND = 'node bin/tcs.mjs risk reset --reason "…"';

/** The Health panel's row: the state, and since when and why (or what is not known). */
export function riskRow(risk: RiskHealth | undefined): { status: string; detail: string } {
  if (!risk) return { status: '—', detail: '' };
  if (risk.status === 'unknown') return { status: 'unknown', detail: risk.reason ?? 'no fresh trading heartbeat' };
  const why = risk.reason ?? '';
  return { status: risk.status, detail: risk.since === null ? why : `since ${utc(risk.since)}: ${why}` };
}

/** The banner's notice while reducing; null in every other state (the kill has its own banner). */
export function reducingNotice(risk: RiskHealth | undefined): string | null {
  if (risk?.status !== 'reducing') return null;
  return (
    `Risk engine reducing since ${utc(risk.since)}: ${risk.reason ?? 'drawdown beyond RISK_MAX_DRAWDOWN'} — ` +
    'only closes pass, and the engine closes positions itself; it ends by a drawdown reset or when ' +
    'RISK_DRAWDOWN_WINDOW drops the peak.'
  );
}

/** POST /control/risk/reset's body: the reason is required and audited, sent trimmed. */
export function riskResetBody(reason: string): { reason: string } {
  return { reason: reason.trim() };
}

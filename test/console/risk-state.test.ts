/**
 * What the console shows of the risk engine's trading state (console/lib/risk-state.ts), without a
 * browser: the Health panel's row for each state of /health's `risk` component, the banner's notice
 * only while `reducing` (since when, why, that only closes pass and how it ends), the reset's body,
 * and the CLI command shown beside the button, held to `tcs risk`'s help.
 */
import { describe, expect, it } from 'vitest';
import { reducingNotice, RISK_RESET_COMMAND, riskResetBody, riskRow } from '../../console/lib/risk-state.js';
import type { RiskHealth } from '../../console/lib/risk-state.js';
import { RISK_REDUCING_RESOLVE } from '../../src/api/risk-health.js';
import { commands } from '../../src/cli/commands.js';

const BREACH = 'drawdown 10.50% from peak NAV 11200.00 exceeds RISK_MAX_DRAWDOWN 10.00%';
const reducing: RiskHealth = {
  status: 'reducing',
  since: '2026-01-05T11:59:00.000Z',
  reason: BREACH,
  resolve: RISK_REDUCING_RESOLVE,
};

describe("the console's risk engine state", () => {
  it("the Health panel's row: the state with since and why, or what is not known", () => {
    expect(riskRow(reducing)).toEqual({ status: 'reducing', detail: `since 2026-01-05 11:59:00 UTC: ${BREACH}` });
    expect(riskRow({ status: 'active', since: '2026-01-05T12:00:00.000Z', reason: 'started' })).toEqual({
      status: 'active',
      detail: 'since 2026-01-05 12:00:00 UTC: started',
    });
    expect(riskRow({ status: 'halted', since: null, reason: 'kill switch' })).toEqual({
      status: 'halted',
      detail: 'kill switch', // a kill sent without its time: no "since" to show
    });
    expect(riskRow({ status: 'unknown', since: null, reason: null })).toEqual({
      status: 'unknown',
      detail: 'no fresh trading heartbeat',
    });
    expect(riskRow({ status: 'unknown', since: null, reason: 'an older release' }).detail).toBe('an older release');
    expect(riskRow(undefined)).toEqual({ status: '—', detail: '' });
  });

  it('the banner notice while reducing says since when, why, that only closes pass and how it ends', () => {
    expect(reducingNotice(reducing)).toBe(
      `Risk engine reducing since 2026-01-05 11:59:00 UTC: ${BREACH} — only closes pass, and the engine closes ` +
        'positions itself; it ends by a drawdown reset or when RISK_DRAWDOWN_WINDOW drops the peak.',
    );
  });

  it('shows no notice in any other state, nor before the first health answer', () => {
    for (const status of ['active', 'halted', 'unknown'] as const) {
      expect(reducingNotice({ status, since: null, reason: 'x' })).toBeNull();
    }
    expect(reducingNotice(undefined)).toBeNull();
  });

  it("sends the reason trimmed, and shows the CLI's own reset command", () => {
    expect(riskResetBody('  loss reviewed ')).toEqual({ reason: 'loss reviewed' });
    expect(RISK_RESET_COMMAND).toBe('node bin/tcs.mjs risk reset --reason "…"');
    const help = commands.find((c) => c.name === 'risk')?.help ?? '';
    expect(help.split('\n')[0]).toContain('tcs risk reset --reason TEXT');
  });
});

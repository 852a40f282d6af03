/**
 * Carrying out a `risk_reset` command (queued by POST /control/risk/reset or `tcs risk reset`): the
 * venue sets the drawdown reference to the current NAV, the reset is recorded in the audit trail
 * (`drawdown_reset`, with the peak before and after, the reason and who asked) and on an event line,
 * and the command completes with the same figures. Run by the trading process, the one writer of the
 * account, so it works while it trades. A retry after a failure between the reset and the completion
 * resets again to the NAV of then: the same effect, one more audit entry.
 */
import type { RiskResetRecord } from '../domain/commands.js';
import { eventLine } from '../domain/event-lines.js';
import { drawdown } from '../domain/risk/drawdown-guard.js';
import type { Clock } from '../ports/clock.js';
import type { Store } from '../ports/store.js';
import type { TradingEvents } from '../ports/trading-events.js';
import type { Venue } from '../ports/venue.js';
import type { CompleteCommand } from './command-completion.js';

export interface RiskResetDeps {
  venue: Venue;
  store: Store;
  clock: Clock;
  events: TradingEvents;
  complete: CompleteCommand;
}

/** What a reset did: when, and the NAV that is now the reference (the risk engine leaves `reducing`). */
export interface DrawdownResetDone {
  at: number;
  nav: number;
  peakNav: number;
}

export function createRiskReset(deps: RiskResetDeps) {
  return async (command: RiskResetRecord): Promise<DrawdownResetDone> => {
    const { reason, actor } = command.payload;
    const reset = await deps.venue.resetDrawdownPeak();
    const figures = {
      previous_peak_nav: reset.previousPeakNav,
      peak_nav: reset.peakNav,
      nav: reset.nav,
      drawdown_before: drawdown(reset.nav, reset.previousPeakNav),
    };
    const at = deps.clock.now();
    await deps.store.events.append({
      kind: 'drawdown_reset',
      at: new Date(at).toISOString(),
      symbol: null,
      body: { command_id: command.id, reason, actor, ...figures },
    });
    deps.events.emit(eventLine.drawdownReset(command.id, reset, { reason, actor }));
    await deps.complete(command, { status: 'done', ...figures });
    return { at, nav: reset.nav, peakNav: reset.peakNav };
  };
}

/**
 * What a change of the risk engine's trading state (machines/risk.machine.ts) becomes outside the
 * actor: an event line (`risk_state_changed`, which the metrics count), an audit entry (`risk_state`)
 * and the stored state (RISK_STATE_KEY) the next process starts from. The line is written at once; the
 * two store writes are queued in order behind each other (the stored state first; each failing on its
 * own), so two quick changes (reducing, then a kill) are recorded in the order they happened. A change the machine could not time (a kill sent without
 * its stored time) is stamped with the process clock.
 */
import { eventLine } from '../domain/event-lines.js';
import type { RiskStateChange, RiskStateRecord } from '../domain/risk/trading-state.js';
import { RISK_STATE_KEY } from '../domain/runtime-documents.js';
import type { Clock } from '../ports/clock.js';
import { writeDocument } from '../ports/documents.js';
import type { KeyValueStore } from '../ports/key-value-store.js';
import type { Store } from '../ports/store.js';
import type { TradingEvents } from '../ports/trading-events.js';

export interface RiskStateRecorderDeps {
  store: Pick<Store, 'events'>;
  kv: KeyValueStore;
  clock: Clock;
  events: TradingEvents;
  log(message: string, details: Record<string, unknown>): void;
}

export interface RiskStateRecorder {
  changed(change: RiskStateChange): void;
  /** Resolves when every change so far is in the store (or failed and was logged). */
  idle(): Promise<void>;
}

export function createRiskStateRecorder(deps: RiskStateRecorderDeps): RiskStateRecorder {
  let queue: Promise<void> = Promise.resolve();
  return {
    changed(change) {
      const at = change.at ?? deps.clock.now();
      const stamped = { ...change, at };
      deps.events.emit(eventLine.riskStateChanged(stamped));
      const record: RiskStateRecord = { state: change.to, since: at, reason: change.reason, peakNav: change.reference };
      const failed = (what: string) => (err: unknown) =>
        // The store's own faults halt trading (the safety monitor); the line above was still written.
        deps.log(`recording a risk state change failed: ${what}`, { err, from: change.from, to: change.to });
      // The stored state first, each write on its own: a failed audit append must not also lose what a
      // restart resumes from (nor the other way round).
      queue = queue
        .then(() => writeDocument(deps.kv, RISK_STATE_KEY, record).catch(failed('the stored state')))
        .then(() =>
          deps.store.events
            .append({
              kind: 'risk_state',
              at: new Date(at).toISOString(),
              symbol: null,
              body: {
                from: change.from,
                to: change.to,
                reason: change.reason,
                drawdown: change.drawdown,
                nav: change.nav,
                peak_nav: change.peakNav,
              },
            })
            .then(() => {}, failed('the audit entry')),
        );
    },
    idle: () => queue,
  };
}

/**
 * What the trading process does with a strategy's errors (issue 19: a strategy that throws must not
 * be silent). Each analysis an agent replies with: every error becomes an `agent_error` event line
 * (which the metrics count: tcs_trading_agent_errors_total), a warning on stderr at most once per
 * agent per minute (agent-error-warnings.ts), and the agent's failing state for the heartbeat, from
 * which /health reports it (domain/failing-agents.ts). The decision entry keeps its own copy of the
 * errors (`agent_errors`, decision-entry.ts). Signals an agent returned that break the signal contract
 * (another symbol's or agent's, bad numbers) are discarded as INVALID_SIGNAL: counted
 * (tcs_trading_invalid_signals_total) and warned on stderr once per agent and cycle, naming the first.
 */
import type { Logger } from 'pino';
import type { AgentError, SignalsReply } from '../../machines/messages.js';

type DiscardedSignal = SignalsReply['invalid'][number];
import { boundedMessage, eventLine } from '../domain/event-lines.js';
import { createFailingAgents } from '../domain/failing-agents.js';
import type { FailingAgent, FailingChange } from '../domain/failing-agents.js';
import type { Clock } from '../ports/clock.js';
import type { TradingEvents } from '../ports/trading-events.js';
import { AGENT_WARNING_INTERVAL_MS, createAgentErrorWarnings } from './agent-error-warnings.js';
import type { AgentWarning } from './agent-error-warnings.js';

export interface AgentErrorsDeps {
  /** "now" of the failing state (the process clock: simulated in a simulation). */
  clock: Clock;
  /** The clock the warnings are limited by: the process clock unless a simulation says otherwise. */
  warningClock?: Clock;
  events: TradingEvents;
  log: Pick<Logger, 'warn'>;
  /** Counts an agent's discarded signals (the metrics' INVALID_SIGNAL counter). */
  countInvalid?(agent: string, n: number): void;
  /** An agent's errors persisted, or that spell ended (src/domain/failing-agents.ts): told to the operator. */
  changed?(change: FailingChange): void;
}

export interface AgentErrors {
  /** One agent's analysis in a cycle ended with these errors (an empty list: it ran clean). */
  analysed(agent: string, errors: readonly AgentError[], invalid?: readonly DiscardedSignal[]): void;
  /** The agents failing now (for the heartbeat). */
  failing(): FailingAgent[];
}

function warningText(w: AgentWarning): string {
  const minute = AGENT_WARNING_INTERVAL_MS / 1000;
  const suppressed = w.suppressed > 0 ? `; ${w.suppressed} more since its last warning` : '';
  return `strategy ${w.agent} threw on ${w.symbol}: ${boundedMessage(w.message)} (one warning per strategy per ${minute} s; every error is an agent_error event line${suppressed})`;
}

export function createAgentErrors(deps: AgentErrorsDeps): AgentErrors {
  const failing = createFailingAgents();
  const warnings = createAgentErrorWarnings(deps.warningClock ?? deps.clock, (w) =>
    deps.log.warn({ agent: w.agent, symbol: w.symbol, suppressed: w.suppressed }, warningText(w)),
  );
  return {
    analysed(agent, errors, invalid = []) {
      if (invalid.length > 0) {
        deps.countInvalid?.(agent, invalid.length);
        const first = invalid[0]!;
        deps.log.warn(
          { agent, symbol: first.symbol, invalid: invalid.length },
          `strategy ${agent}: ${invalid.length} signal(s) discarded as INVALID_SIGNAL this cycle, first for ${first.symbol}: ${boundedMessage(first.reason)}`,
        );
      }
      for (const error of errors) {
        deps.events.emit(eventLine.agentError(agent, error));
        warnings.error(agent, error);
      }
      const change = failing.analysed(agent, errors, deps.clock.now());
      if (change !== null) deps.changed?.(change);
    },
    failing: () => failing.list(),
  };
}

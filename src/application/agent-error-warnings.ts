/**
 * The stderr warnings for a strategy that throws: at most one per agent per AGENT_WARNING_INTERVAL_MS
 * of the injected clock, each saying how many of that agent's errors since its previous warning were
 * not logged. Every error still has its `agent_error` event line and counts in /metrics; the limit
 * only keeps a strategy that throws every cycle from filling stderr.
 */
import type { Clock } from '../ports/clock.js';
import { monotonicNow } from '../ports/clock.js';

/** One warning per agent per minute. */
export const AGENT_WARNING_INTERVAL_MS = 60_000;

export interface AgentWarning {
  agent: string;
  symbol: string;
  message: string;
  /** That agent's errors since its previous warning that were not logged (0 for its first). */
  suppressed: number;
}

export interface AgentErrorWarnings {
  /** An error of `agent`: warns now, or counts it for the agent's next warning. */
  error(agent: string, error: { symbol: string; message: string }): void;
}

export function createAgentErrorWarnings(
  clock: Clock,
  warn: (warning: AgentWarning) => void,
  intervalMs = AGENT_WARNING_INTERVAL_MS,
): AgentErrorWarnings {
  const last = new Map<string, { at: number; suppressed: number }>();
  return {
    error(agent, error) {
      // A duration: on the clock that never steps (a wall clock stepped back would silence an agent).
      const now = monotonicNow(clock);
      const previous = last.get(agent);
      if (previous && now - previous.at < intervalMs) {
        previous.suppressed += 1;
        return;
      }
      warn({ agent, symbol: error.symbol, message: error.message, suppressed: previous?.suppressed ?? 0 });
      last.set(agent, { at: now, suppressed: 0 });
    },
  };
}

/**
 * A strategy agent whose errors persisted, and the end of that spell, in the audit trail
 * (`agent_failing`, `agent_recovered`), so the notifier tells an operator once a spell rather than
 * once a cycle (src/domain/failing-agents.ts says when). Written from the cycle that found it, into
 * the store every cycle writes; best effort: the caller logs a refusal, and /health and the metrics
 * still show the failing agent.
 */
import type { FailingChange } from '../domain/failing-agents.js';
import type { EventStore } from '../ports/event-store.js';

export async function recordAgentSpell(events: Pick<EventStore, 'append'>, change: FailingChange): Promise<void> {
  const a = change.agent;
  const spell = {
    agent: a.agent,
    since: new Date(a.since).toISOString(),
    errors: a.errors,
    last_error_at: new Date(a.lastErrorAt).toISOString(),
    symbol: a.symbol,
    message: a.message,
  };
  await events.append(
    change.kind === 'persisting'
      ? { kind: 'agent_failing', at: new Date(a.lastErrorAt).toISOString(), symbol: null, body: spell }
      : {
          kind: 'agent_recovered',
          at: new Date(change.at).toISOString(),
          symbol: null,
          body: { ...spell, recovered_at: new Date(change.at).toISOString() },
        },
  );
}

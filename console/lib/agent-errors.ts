/**
 * What the decision view shows of the errors strategies threw in a cycle: the decision entry's
 * `agent_errors`, each stored as "agent: SYMBOL: message" (the format every entry has had, so old
 * entries read the same), split for the detail's table, and the mark on the cycle's row. Pure,
 * tested without a browser.
 */
import { NONE } from './format.js';
import type { DecisionBody } from './types.js';

export interface AgentErrorRow {
  agent: string;
  symbol: string;
  message: string;
}

export function agentErrorsOf(d: Pick<DecisionBody, 'agent_errors'>): AgentErrorRow[] {
  return (d.agent_errors ?? []).map((text) => {
    const match = /^([^:]+): ([^:\s]+): ([\s\S]*)$/.exec(text);
    return match
      ? { agent: match[1]!, symbol: match[2]!, message: match[3]! }
      : { agent: NONE, symbol: NONE, message: text };
  });
}

/** The row's mark (a count) and its tooltip naming the agents; null for a cycle without errors. */
export function agentErrorMark(d: Pick<DecisionBody, 'agent_errors'>): { text: string; title: string } | null {
  const errors = agentErrorsOf(d);
  if (errors.length === 0) return null;
  const agents = [...new Set(errors.map((e) => e.agent))].join(', ');
  const n = errors.length;
  return { text: `⚠ ${n}`, title: `${n} agent error${n === 1 ? '' : 's'}: ${agents}` };
}

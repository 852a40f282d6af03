/**
 * The rate limit of the strategies' stderr warnings, on an injected clock: one warning per agent per
 * minute, each agent on its own, each warning counting the errors not logged since the agent's last.
 */
import { describe, expect, it } from 'vitest';
import { createAgentErrorWarnings } from '../../src/application/agent-error-warnings.js';
import type { AgentWarning } from '../../src/application/agent-error-warnings.js';

describe('agent error warnings', () => {
  it('warns once per agent per minute, agents apart, and counts what it did not log', () => {
    let now = 0;
    const warned: AgentWarning[] = [];
    const warnings = createAgentErrorWarnings({ now: () => now }, (w) => warned.push(w));
    const error = (agent: string, at: number) => {
      now = at;
      warnings.error(agent, { symbol: 'BTCUSDT', message: `at ${at}` });
    };
    error('a', 0);
    error('b', 1_000); // another agent: its own first warning
    error('a', 30_000);
    error('a', 59_999);
    error('a', 60_000); // a minute after a's last warning
    error('b', 30_000);
    error('a', 200_000);
    expect(warned.map((w) => [w.agent, w.message, w.suppressed])).toEqual([
      ['a', 'at 0', 0],
      ['b', 'at 1000', 0],
      ['a', 'at 60000', 2],
      ['a', 'at 200000', 0],
    ]);
  });
});

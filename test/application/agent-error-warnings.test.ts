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

  it('is timed on the monotonic clock: a wall clock stepped back an hour does not silence an agent for that hour', () => {
    const time = { wall: 3_600_000, mono: 0 };
    const warned: AgentWarning[] = [];
    const warnings = createAgentErrorWarnings({ now: () => time.wall, monotonic: () => time.mono }, (w) =>
      warned.push(w),
    );
    warnings.error('a', { symbol: 'BTCUSDT', message: 'first' });
    time.wall -= 3_600_000;
    time.mono += 60_000;
    warnings.error('a', { symbol: 'BTCUSDT', message: 'a minute later' });
    expect(warned.map((w) => w.message)).toEqual(['first', 'a minute later']);
  });
});

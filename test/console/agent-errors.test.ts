/**
 * The decision view's mark for a cycle in which a strategy threw (issue 19): read from the decision
 * entry's `agent_errors` ("agent: SYMBOL: message", as entries have always stored them, so old
 * entries are marked too), without a browser.
 */
import { describe, expect, it } from 'vitest';
import { agentErrorMark, agentErrorsOf } from '../../console/lib/agent-errors.js';

describe("the decision view's agent-error mark", () => {
  it('splits each stored error into agent, symbol and message', () => {
    expect(
      agentErrorsOf({
        agent_errors: ['throwing: BTCUSDT: no model for BTCUSDT', 'throwing: ETHUSDT: bad: value: here'],
      }),
    ).toEqual([
      { agent: 'throwing', symbol: 'BTCUSDT', message: 'no model for BTCUSDT' },
      { agent: 'throwing', symbol: 'ETHUSDT', message: 'bad: value: here' },
    ]);
  });

  it('keeps a string it cannot split as the message', () => {
    expect(agentErrorsOf({ agent_errors: ['odd'] })).toEqual([{ agent: '—', symbol: '—', message: 'odd' }]);
  });

  it('marks a cycle with errors, naming the agents, and not a clean one or an entry without the field', () => {
    expect(
      agentErrorMark({ agent_errors: ['throwing: BTCUSDT: x', 'throwing: ETHUSDT: y', 'other: BTCUSDT: z'] }),
    ).toEqual({ text: '⚠ 3', title: '3 agent errors: throwing, other' });
    expect(agentErrorMark({ agent_errors: ['throwing: BTCUSDT: x'] })).toEqual({
      text: '⚠ 1',
      title: '1 agent error: throwing',
    });
    expect(agentErrorMark({ agent_errors: [] })).toBeNull();
    expect(agentErrorMark({})).toBeNull();
  });
});

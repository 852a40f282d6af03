/**
 * Agent errors that persist are told (issue 35), once a spell: the failing-agents rule
 * (src/domain/failing-agents.ts) says when an agent's errors have persisted — it threw in each of
 * its last FAILING_WINDOW_ANALYSES analyses — and when that spell ended. A single throw between
 * clean analyses is not told (the event line, the metric and /health have it); neither is every
 * failing cycle after the first notice.
 */
import { describe, expect, it } from 'vitest';
import { FAILING_WINDOW_ANALYSES, createFailingAgents } from '../../src/domain/failing-agents.js';

const boom = [{ symbol: 'BTCUSDT', message: 'boom' }];

describe('failing agents: when to tell', () => {
  it('tells once when errors persisted through the window, and once when the spell ends', () => {
    const agents = createFailingAgents();
    const changes = [];
    for (let i = 0; i < FAILING_WINDOW_ANALYSES + 4; i++) changes.push(agents.analysed('momo', boom, 1_000 * i));
    expect(changes.filter((c) => c !== null)).toEqual([
      {
        kind: 'persisting',
        agent: {
          agent: 'momo',
          since: 0,
          lastErrorAt: 1_000 * (FAILING_WINDOW_ANALYSES - 1),
          errors: FAILING_WINDOW_ANALYSES,
          symbol: 'BTCUSDT',
          message: 'boom',
        },
      },
    ]);
    expect(changes.findIndex((c) => c !== null)).toBe(FAILING_WINDOW_ANALYSES - 1);
    const after = [];
    for (let i = 0; i < FAILING_WINDOW_ANALYSES; i++) after.push(agents.analysed('momo', [], 100_000 + i));
    expect(after.slice(0, -1)).toEqual([null, null]);
    expect(after.at(-1)).toMatchObject({ kind: 'recovered', agent: { agent: 'momo', since: 0 } });
  });

  it('a throw now and then is not told, nor its end', () => {
    const agents = createFailingAgents();
    const changes = [];
    for (let i = 0; i < 20; i++) changes.push(agents.analysed('momo', i % 2 === 0 ? boom : [], i));
    for (let i = 0; i < 5; i++) changes.push(agents.analysed('momo', [], 100 + i));
    expect(changes.every((c) => c === null)).toBe(true);
  });
});

// The decision entry's signal list (issue 19): a signal the arbiter selected but the allocator made
// nothing of (within the no-trade band) was recorded "selected" with its score, though it changed
// nothing; it now carries the allocator's reason and is not selected. Discarded contract breaches are
// listed with their agent.
import { describe, expect, it } from 'vitest';
import type { CycleRecord } from '../../machines/cycle.machine.js';
import { decisionEntry } from '../../src/application/decision-entry.js';
import { arbitrate } from '../../src/domain/arbitration.js';
import type { Signal } from '../../src/domain/signal.js';

const held: Signal = { agent: 'momentum', symbol: 'BTCUSDT', direction: 1, confidence: 0.6 };
const fresh: Signal = { agent: 'momentum', symbol: 'ETHUSDT', direction: 1, confidence: 0.5 };

function record(): CycleRecord {
  const arbitration = arbitrate([held, fresh], { maxOrders: 1 });
  return {
    cycle: 4,
    epoch: 1,
    now: 0,
    account: null,
    replies: [
      {
        type: 'agent.signals',
        cycle: 4,
        agent: 'momentum',
        signals: [held, fresh],
        errors: [],
        invalid: [{ symbol: 'SOLUSDT', reason: 'signal names agent "badagent", not "momentum"' }],
      },
    ],
    arbitration,
    proposals: [
      { signal: held, order: null, skipped: { code: 'WITHIN_BAND', message: 'already there' } },
      {
        signal: fresh,
        order: {
          clientOrderId: 'c-4-ETHUSDT-0',
          symbol: 'ETHUSDT',
          side: 'BUY',
          qty: 1,
          type: 'market',
          limitPrice: null,
          reduceOnly: false,
        },
        skipped: null,
      },
    ],
    verdicts: [],
    outcomes: [],
    outcome: 'completed',
    error: null,
  };
}

describe('decision entry: what a signal did (issue 19)', () => {
  it("records a selected signal that changed nothing with the allocator's reason, not as selected", () => {
    const { body } = decisionEntry(record(), 3);
    const signals = body.signals as Array<Signal & { selected: boolean; reason: string }>;
    expect(signals.map((s) => [s.symbol, s.selected, s.reason])).toEqual([
      ['BTCUSDT', false, 'WITHIN_BAND'],
      ['ETHUSDT', true, 'SELECTED'],
    ]);
    expect(body.invalid_signals).toEqual([
      { agent: 'momentum', symbol: 'SOLUSDT', reason: 'signal names agent "badagent", not "momentum"' },
    ]);
  });

  it('records the bar each feed just closed, for the console’s candle chart, and none when the market did not load', () => {
    const candles = { BTCUSDT: [60_000, 1, 2, 0.5, 1.5] as [number, number, number, number, number] };
    expect(decisionEntry({ ...record(), candles }, 3).body.candles).toEqual(candles);
    expect(decisionEntry(record(), 3).body).not.toHaveProperty('candles');
  });
});

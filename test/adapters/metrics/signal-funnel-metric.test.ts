/**
 * `tcs_trading_signals_total{agent,outcome,reason}` (issue 34, item 3): each signal of a cycle is
 * counted once, by what the cycle made of it, read from the cycle's record: a floor, a band skip, a
 * risk denial by its code, an order, a strategy's error, and a cycle superseded before sizing.
 */
import { describe, expect, it } from 'vitest';
import { TradingMetrics } from '../../../src/adapters/metrics/trading-metrics.js';
import type { FunnelRecord } from '../../../src/domain/signal-funnel.js';
import type { Signal } from '../../../src/domain/signal.js';

const signal = (agent: string, symbol: string, confidence = 1): Signal => ({ agent, symbol, direction: 1, confidence });
const order = (symbol: string, id: string) =>
  ({ clientOrderId: id, symbol, side: 'BUY', type: 'market', qty: 1, limitPrice: null, reduceOnly: false }) as never;
const decision = (code: string | null) =>
  ({ approved: code === null, checks: [{ guard: 'leverage', passed: code === null, code: code ?? 'OK' }] }) as never;

async function counted(metrics: TradingMetrics): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  for (const line of (await metrics.text()).split('\n')) {
    const m = line.match(/^tcs_trading_signals_total\{agent="(\w+)",outcome="(\w+)",reason="(\w*)"[^}]*\} (\d+)$/);
    if (m) found[`${m[1]} ${m[2]} ${m[3]}`] = Number(m[4]);
  }
  return found;
}

describe('tcs_trading_signals_total by outcome and reason', () => {
  it('counts each signal of a cycle once, by what became of it', async () => {
    const weak = signal('a', 'XRPUSDT', 0.05);
    const banded = signal('a', 'BTCUSDT', 0.15);
    const denied = signal('b', 'ETHUSDT');
    const sent = signal('b', 'SOLUSDT');
    const ranked = (s: Signal, selected: boolean, reason: string) => ({
      signal: s,
      weight: 1,
      score: 1,
      selected,
      reason,
    });
    const record = {
      outcome: 'completed',
      account: { positions: [], openOrders: [] },
      replies: [
        { agent: 'a', signals: [weak, banded], errors: [{ symbol: 'ADAUSDT', message: 'boom' }], invalid: [] },
        { agent: 'b', signals: [denied, sent], errors: [], invalid: [] },
      ],
      arbitration: {
        ranked: [
          ranked(denied, true, 'SELECTED'),
          ranked(sent, true, 'SELECTED'),
          ranked(banded, true, 'SELECTED'),
          ranked(weak, false, 'BELOW_MIN_CONFIDENCE'),
        ],
        selected: [denied, sent, banded],
        maxOrders: 3,
      },
      proposals: [
        { signal: banded, order: null, skipped: { code: 'WITHIN_BAND', message: '' } },
        { signal: denied, order: order('ETHUSDT', 'o1'), skipped: null },
        { signal: sent, order: order('SOLUSDT', 'o2'), skipped: null },
      ],
      verdicts: [
        { order: { clientOrderId: 'o1' }, decision: decision('LEVERAGE_LIMIT'), approval: null },
        { order: { clientOrderId: 'o2' }, decision: decision(null), approval: {} },
      ],
      outcomes: [{ clientOrderId: 'o2', status: 'submitted', venueStatus: 'open', filledQty: 0 }],
    } as unknown as FunnelRecord;
    const metrics = new TradingMetrics();
    metrics.observeSignals(record);
    // Superseded before the arbiter ran: its signals were dropped by the cycle's end.
    metrics.observeSignals({
      ...record,
      outcome: 'superseded',
      arbitration: null,
      proposals: [],
      verdicts: [],
      outcomes: [],
    });
    expect(await counted(metrics)).toEqual({
      'a skipped BELOW_MIN_CONFIDENCE': 1,
      'a skipped WITHIN_BAND': 1,
      'a errored AGENT_ERROR': 2,
      'a skipped CYCLE_SUPERSEDED': 2,
      'b risk_denied LEVERAGE_LIMIT': 1,
      'b ordered ': 1,
      'b skipped CYCLE_SUPERSEDED': 2,
    });
  });
});

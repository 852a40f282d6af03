/**
 * One valid body per shared document (src/domain/documents/registry.ts), as its writer writes it:
 * the contract suites round-trip each through a real store and break them on purpose.
 */
import type { DocumentKey, DocumentOf } from '../../src/domain/documents/registry.js';
import {
  API_HEARTBEAT_KEY,
  HEARTBEAT_KEY,
  KILL_PENDING_KEY,
  MACHINES_KEY,
  NOTIFIER_STATUS_KEY,
  OWNERS_KEY,
  PORTFOLIO_KEY,
  PROTECTION_KEY,
  REPLAY_CURSOR_KEY,
  RISK_STATE_KEY,
  LIVE_INCOME_KEY,
  LIVE_PEAKS_KEY,
  TRADING_METRICS_KEY,
} from '../../src/domain/runtime-documents.js';

export const T0 = Date.UTC(2026, 0, 5, 12);

export const SAMPLE_DOCUMENTS: { [K in DocumentKey]: DocumentOf<K> } = {
  [HEARTBEAT_KEY]: {
    pid: 4242,
    host: 'trader-1',
    ts: T0,
    intervalMs: 5_000,
    state: 'running',
    epoch: 3,
    lastCycle: 17,
    lastCycleAt: T0 - 1_000,
    mode: 'paper',
    stopped: false,
    halt: null,
  },
  [API_HEARTBEAT_KEY]: { pid: 77, host: 'api-1', ts: T0, seq: 12 },
  [KILL_PENDING_KEY]: { until: T0 + 2_000 },
  [PROTECTION_KEY]: {
    positions: { BTCUSDT: { side: 1, best: 43_210.5, agent: 'momentum_ma_crossover' } },
    cooldowns: { funding_rate_contrarian: { ETHUSDT: 42 } },
  },
  [OWNERS_KEY]: { owners: { BTCUSDT: 'momentum_ma_crossover', ETHUSDT: 'funding_rate_contrarian' } },
  [RISK_STATE_KEY]: {
    state: 'reducing',
    since: T0 - 60_000,
    reason: 'drawdown 10.50% from peak NAV 11200.00 exceeds RISK_MAX_DRAWDOWN 10.00%',
    peakNav: 11_200,
  },
  [LIVE_PEAKS_KEY]: {
    account: 'binanceusdm:testnet',
    peaks: [
      [T0 - 86_400_000, 10_250],
      [T0, 10_100],
    ],
  },
  [LIVE_INCOME_KEY]: {
    account: 'binanceusdm:testnet',
    income: { since: T0 - 86_400_000, through: T0, seen: ['COMMISSION:9000000003'], fundingPnl: -1.25, feesPaid: 4.5 },
  },
  [NOTIFIER_STATUS_KEY]: {
    ts: T0,
    intervalMs: 500,
    backlog: 2,
    oldestPendingAt: T0 - 90_000,
    targets: [
      { id: 'hook1', pending: 2, lastError: 'HTTP 500' },
      { id: 'hook2', pending: 0, lastError: null },
    ],
  },
  [PORTFOLIO_KEY]: {
    nav: 10_050.25,
    peakNav: 10_100,
    cash: 9_000,
    realizedPnl: 12.5,
    unrealizedPnl: -3.25,
    fundingPnl: 0.5,
    feesPaid: 1.75,
    positions: [
      {
        symbol: 'BTCUSDT',
        kind: 'perp',
        qty: -0.25,
        entryPrice: 60_000,
        markPrice: 60_100,
        unrealizedPnl: -25,
        realizedPnl: 0,
      },
    ],
    openOrders: [
      {
        clientOrderId: 'c-1',
        symbol: 'BTCUSDT',
        side: 'BUY',
        qty: 0.1,
        type: 'limit',
        limitPrice: 59_000,
        reduceOnly: false,
        timeInForce: 'GTC',
        status: 'open',
        filledQty: 0,
        avgFillPrice: null,
        createdAt: T0 - 5_000,
        updatedAt: T0 - 5_000,
      },
    ],
    ts: T0,
  },
  [TRADING_METRICS_KEY]: { ts: T0, text: '# HELP tcs_cycles_total Cycles\ntcs_cycles_total 17\n' },
  [MACHINES_KEY]: {
    ts: T0,
    cycle: 17,
    active: { trading: ['trading', 'trading.control'], cycle: ['cycle'], 'order-manager': ['oms'] },
  },
  [REPLAY_CURSOR_KEY]: { dir: '/data/replay', next: T0 + 60_000 },
};

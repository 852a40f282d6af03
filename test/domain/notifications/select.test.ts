import { describe, expect, it } from 'vitest';
import { selectNotifications } from '../../../src/domain/notifications/select.js';
import type { AuditEvent } from '../../../src/ports/event-store.js';

const entry = (seq: number, kind: string, body: Record<string, unknown>, symbol: string | null = null): AuditEvent => ({
  seq,
  at: '2026-11-28T07:00:00.000Z',
  kind,
  symbol,
  body,
  prev_hash: 'p'.repeat(64),
  hash: `h${seq}`.padEnd(64, '0'),
});

describe('selectNotifications', () => {
  it('a kill, a pause that changed nothing, and a kill reset', () => {
    const kill = selectNotifications(
      entry(1, 'control', { event: 'control.kill', outcome: 'changed', reason: 'x', actor: 'api' }),
    );
    expect(kill.map((n) => n.kind)).toEqual(['kill']);
    expect(kill[0]!.id).toBe(`h1`.padEnd(64, '0') + ':kill:0');
    const unchanged = selectNotifications(entry(2, 'control', { event: 'control.pause', outcome: 'unchanged' }));
    expect(unchanged).toEqual([]);
    expect(selectNotifications(entry(3, 'kill_reset', { reason: 'ok' })).map((n) => n.kind)).toEqual(['kill_reset']);
  });

  it('halt start and end, risk state, liquidation', () => {
    const started = selectNotifications(
      entry(3, 'trading_halt_started', {
        reason: 'control_plane_lost',
        message: 'no API heartbeat for 30 s',
        since: '2026-01-05T12:00:00.000Z',
      }),
    );
    expect(started.map((n) => [n.kind, n.title])).toEqual([['halt_started', 'Trading halted: control_plane_lost']]);
    expect(started[0]!.text).toMatch(/^since 2026-01-05T12:00:00.000Z: no API heartbeat for 30 s\./);
    expect(selectNotifications(entry(4, 'trading_halt', { reason: 'store' }))[0]!.kind).toBe('halt_ended');
    const drift = selectNotifications(
      entry(7, 'position_drift', { drift: [{ symbol: 'BTCUSDT', expected: 0.1, actual: 0.6 }] }),
    );
    expect(drift.map((n) => [n.kind, n.title])).toEqual([['drift', 'Position drift: BTCUSDT']]);
    expect(drift[0]!.text).toMatch(/^BTCUSDT holds 0\.6, expected 0\.1\./);
    expect(selectNotifications(entry(8, 'position_drift', { drift: [] })).map((n) => n.title)).toEqual([
      'Position drift ended',
    ]);
    expect(selectNotifications(entry(5, 'risk_state', { from: 'active', to: 'reducing' }))[0]!.kind).toBe(
      'risk_state_changed',
    );
    expect(selectNotifications(entry(6, 'position_liquidated', {}))[0]!.kind).toBe('liquidation');
  });

  it('a fill between cycles (order_filled) is a fill notice saying how it came about', () => {
    const body = { client_order_id: 'c-1', symbol: 'BTCUSDT', side: 'SELL', qty: 0.2, price: 51_000 };
    const resting = selectNotifications(entry(9, 'order_filled', { ...body, source: 'resting' }, 'BTCUSDT'));
    expect(resting.map((n) => [n.kind, n.title, n.text, n.symbol])).toEqual([
      ['fill', 'Resting order filled', 'BTCUSDT SELL 0.2 @ 51000 (c-1)', 'BTCUSDT'],
    ]);
    expect(selectNotifications(entry(10, 'order_filled', { ...body, source: 'exchange_stop' }))[0]!.title).toBe(
      'Exchange stop filled',
    );
    expect(selectNotifications(entry(11, 'order_filled', { ...body, source: 'cancel' }))[0]!.title).toBe(
      'Order filled before its cancel',
    );
  });

  it('a decision gives one fill per filled submission, and nothing for agent errors (told once a spell)', () => {
    const got = selectNotifications(
      entry(
        7,
        'decision',
        {
          cycle: 9,
          agent_errors: ['momo: BTC-USD: boom'],
          submissions: [
            { clientOrderId: 'a', status: 'submitted', venueStatus: 'closed', filledQty: 0.5 },
            { clientOrderId: 'b', status: 'submitted', venueStatus: 'open', filledQty: 0 },
            { clientOrderId: 'c', status: 'refused' },
          ],
        },
        'BTC-USD',
      ),
    );
    expect(got.map((n) => n.kind)).toEqual(['fill']);
    expect(got[0]!.data).toMatchObject({ clientOrderId: 'a', filledQty: 0.5 });
  });

  it("an agent's errors that persist are one agent_error notice, and its recovery another", () => {
    const spell = {
      agent: 'momo',
      since: '2026-11-28T06:57:00.000Z',
      errors: 3,
      last_error_at: '2026-11-28T06:59:00.000Z',
      symbol: 'BTCUSDT',
      message: 'boom',
    };
    const failing = selectNotifications(entry(10, 'agent_failing', spell));
    expect(failing.map((n) => [n.kind, n.title, n.text])).toEqual([
      [
        'agent_error',
        'Strategy momo keeps failing',
        'since 2026-11-28T06:57:00.000Z, 3 errors; latest on BTCUSDT: boom. It gives no signal where it throws.',
      ],
    ]);
    const recovered = selectNotifications(
      entry(11, 'agent_recovered', { ...spell, recovered_at: '2026-11-28T07:05:00.000Z' }),
    );
    expect(recovered.map((n) => [n.kind, n.title])).toEqual([['agent_error', 'Strategy momo runs clean again']]);
  });

  it('a quiet decision and unknown kinds give nothing', () => {
    expect(selectNotifications(entry(8, 'decision', { agent_errors: [], submissions: [] }))).toEqual([]);
    expect(selectNotifications(entry(9, 'command_executed', {}))).toEqual([]);
  });
});

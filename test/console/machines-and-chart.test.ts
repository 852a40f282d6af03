/**
 * The console's pure view logic: the actor system's active states merged from SSE `machines` events
 * (console/lib/machines.ts), and the NAV/drawdown series (console/lib/chart-points.ts).
 */
import { describe, expect, it } from 'vitest';
import { mergePoints, navPoint } from '../../console/lib/chart-points.js';
import { activeLeaves, applyMachinesEvent, shortId, staleMachinesReason } from '../../console/lib/machines.js';
import type { MachinesDocument, StateNode } from '../../console/lib/machines.js';

const node = (id: string, type: StateNode['type'], children: StateNode[] = []): StateNode => ({
  id,
  key: id.split('.').at(-1)!,
  type,
  children,
});

const TRADING = node('trading', 'compound', [
  node('trading.running', 'compound', [
    node('trading.running.cycling', 'atomic'),
    node('trading.running.waiting', 'atomic'),
  ]),
  node('trading.paused', 'atomic'),
  node('trading.killed', 'final'),
]);
const OMS = node('order-manager', 'parallel', [
  node('order-manager.gate', 'compound', [
    node('order-manager.gate.open', 'atomic'),
    node('order-manager.gate.halted', 'atomic'),
  ]),
  node('order-manager.queue', 'compound', [
    node('order-manager.queue.idle', 'atomic'),
    node('order-manager.queue.busy', 'atomic'),
  ]),
]);

const DOC: MachinesDocument = {
  published_at: '2026-01-05T12:00:00.000Z',
  cycle: 3,
  machines: [
    {
      id: 'trading',
      label: 'Trading (root)',
      root: TRADING,
      active: ['trading', 'trading.running', 'trading.running.waiting'],
    },
    { id: 'order-manager', label: 'Order manager', root: OMS, active: [] },
  ],
};

describe('machine view', () => {
  it('replaces the active states of the machines an event names, and keeps the others', () => {
    const next = applyMachinesEvent(DOC, {
      published_at: '2026-01-05T12:00:01.000Z',
      cycle: 4,
      active: { trading: ['trading', 'trading.paused'] },
    });
    expect(next.cycle).toBe(4);
    expect(next.published_at).toBe('2026-01-05T12:00:01.000Z');
    expect(next.machines[0]!.active).toEqual(['trading', 'trading.paused']);
    expect(next.machines[1]).toBe(DOC.machines[1]);
    expect(DOC.machines[0]!.active).toContain('trading.running.waiting'); // not mutated
  });

  it('names the deepest active states, one per parallel region', () => {
    expect(activeLeaves(DOC.machines[0]!)).toEqual(['trading.running.waiting']);
    const oms = {
      ...DOC.machines[1]!,
      active: [
        'order-manager',
        'order-manager.gate',
        'order-manager.gate.halted',
        'order-manager.queue',
        'order-manager.queue.idle',
      ],
    };
    expect(activeLeaves(oms)).toEqual(['order-manager.gate.halted', 'order-manager.queue.idle']);
    expect(activeLeaves(DOC.machines[1]!)).toEqual([]);
    expect(shortId('trading.running.cycling')).toBe('running.cycling');
    expect(shortId('trading')).toBe('trading');
  });
});

describe('NAV chart points', () => {
  it('computes drawdown from the peak and keys points by whole second', () => {
    expect(navPoint('2026-01-05T12:00:00.900Z', 98, 100)).toEqual({ time: 1767614400, nav: 98, drawdown: 0.02 });
    expect(navPoint('2026-01-05T12:00:00Z', 101, 100)!.drawdown).toBe(0);
    expect(navPoint('nonsense', 1, 1)).toBeNull();
  });

  it('merges into one sorted series, the later point of a second winning, capped in length', () => {
    const a = navPoint('2026-01-05T12:00:02Z', 100, 100);
    const b = navPoint('2026-01-05T12:00:01Z', 99, 100);
    const c = navPoint('2026-01-05T12:00:02.5Z', 98, 100);
    const series = mergePoints(mergePoints([], [a, b, null]), [c]);
    expect(series.map((p) => p.nav)).toEqual([99, 98]);
    expect(series.map((p) => p.time)).toEqual([b!.time, a!.time]);
    expect(mergePoints(series, [], 1)).toEqual([series[1]]);
  });

  it('says when the published states may be old: a stopped, stale or missing trading process', () => {
    expect(staleMachinesReason({ stopped: false }, { status: 'ok' })).toBeNull();
    expect(staleMachinesReason(null, null)).toBeNull();
    expect(staleMachinesReason({ stopped: true }, { status: 'ok' })).toMatch(/stopped/);
    expect(staleMachinesReason({ stopped: false }, { status: 'stale' })).toMatch(/missed its heartbeats/);
    expect(staleMachinesReason(null, { status: 'down' })).toMatch(/not running/);
  });
});

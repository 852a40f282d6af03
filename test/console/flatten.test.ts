/**
 * The flatten confirmation (console/lib/flatten.ts): the closes it lists from the published positions,
 * and the bodies it sends — a kill without the box ticked is the spec's request exactly.
 */
import { describe, expect, it } from 'vitest';
import { flattenBody, killBody, plannedCloses } from '../../console/lib/flatten.js';
import type { Account } from '../../console/lib/types.js';

const position = (symbol: string, qty: number) =>
  ({
    symbol,
    qty,
    kind: 'perp',
    entryPrice: 1,
    markPrice: 1,
    unrealizedPnl: 0,
    realizedPnl: 0,
  }) as unknown as Account['positions'][number];

describe('the flatten confirmation', () => {
  const positions = [position('BTCUSDT', 0.5), position('ETHUSDT', -2), position('SOLUSDT', 0)];

  it('lists a SELL for a long and a BUY for a short, skipping flat ones; one symbol when chosen', () => {
    expect(plannedCloses(positions, '')).toEqual([
      { symbol: 'BTCUSDT', side: 'SELL', qty: 0.5 },
      { symbol: 'ETHUSDT', side: 'BUY', qty: 2 },
    ]);
    expect(plannedCloses(positions, 'ETHUSDT')).toEqual([{ symbol: 'ETHUSDT', side: 'BUY', qty: 2 }]);
    expect(plannedCloses(positions, 'SOLUSDT')).toEqual([]);
  });

  it('sends symbols null for every position, and a reason only when one was written', () => {
    expect(flattenBody('', '  ')).toEqual({ symbols: null });
    expect(flattenBody('BTCUSDT', ' venue down ')).toEqual({ symbols: ['BTCUSDT'], reason: 'venue down' });
  });

  it('sends flatten with the kill only when ticked', () => {
    expect(killBody(' incident ', false)).toEqual({ reason: 'incident' });
    expect(killBody('incident', true)).toEqual({ reason: 'incident', flatten: true });
  });
});

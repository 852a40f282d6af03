/**
 * What the flatten confirmation shows and sends, kept pure so it is tested without a browser: the
 * reduce-only closes the last published portfolio implies (a long closes with a SELL, a short with a
 * BUY), and the request bodies of POST /control/flatten and of the kill switch with its `flatten` flag
 * (sent only when ticked, so an unticked kill is the spec's request exactly).
 */
import type { Account } from './types.js';

export interface PlannedClose {
  symbol: string;
  side: 'BUY' | 'SELL';
  qty: number;
}

/** The closes a flatten of `symbol` ('' = every position) would send, from the published positions. */
export function plannedCloses(positions: Account['positions'], symbol: string): PlannedClose[] {
  return positions
    .filter((p) => p.qty !== 0 && (symbol === '' || p.symbol === symbol))
    .map((p) => ({ symbol: p.symbol, side: p.qty > 0 ? 'SELL' : 'BUY', qty: Math.abs(p.qty) }));
}

export function flattenBody(symbol: string, reason: string): { symbols: string[] | null; reason?: string } {
  const why = reason.trim();
  return { symbols: symbol === '' ? null : [symbol], ...(why ? { reason: why } : {}) };
}

export function killBody(reason: string, flatten: boolean): { reason: string; flatten?: true } {
  return { reason: reason.trim(), ...(flatten ? { flatten: true as const } : {}) };
}

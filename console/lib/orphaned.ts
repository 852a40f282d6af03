/**
 * What the console shows of orphaned positions (issue 30), from /health's `positions` component:
 * positions no configured strategy closes (their symbol left SYMBOLS, or their strategy left
 * STRATEGIES). The Health panel's row names each and the call that closes them; the Account panel
 * marks their rows. Pure, tested without a browser.
 */
import type { Health } from './types.js';

export type PositionsHealth = Health['components']['positions'];

export function positionsRow(positions: PositionsHealth | undefined): { status: string; detail: string } {
  if (!positions) return { status: '—', detail: '' };
  if (positions.status === 'unknown') return { status: 'unknown', detail: 'no fresh trading heartbeat' };
  if (positions.status === 'ok') return { status: 'ok', detail: 'every position has a configured strategy' };
  const what = positions.orphaned
    .map(
      (o) =>
        `${o.symbol} ${o.qty} (${o.why === 'symbol_not_listed' ? 'not in SYMBOLS' : `${o.agent ?? '?'} not in STRATEGIES`})`,
    )
    .join('; ');
  return {
    status: 'orphaned',
    detail: `${what} — no strategy closes them; Flatten their symbols (${positions.resolve ?? ''})`,
  };
}

/** The symbols to mark as orphaned in the positions table. */
export function orphanedSymbols(health: Health | null): ReadonlySet<string> {
  return new Set((health?.components.positions?.orphaned ?? []).map((o) => o.symbol));
}

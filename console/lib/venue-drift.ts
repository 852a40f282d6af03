/**
 * What the console shows of the live venue's reconciliation (issue 21), from /health's `venue`
 * component: the Health panel's row — `drift` names each symbol, what the system's fills explain and
 * what the exchange holds, and how it ends. Pure, tested without a browser.
 */
import type { Health } from './types.js';

export type VenueHealth = Health['components']['venue'];

export function venueRow(venue: VenueHealth | undefined): { status: string; detail: string } {
  if (!venue) return { status: '—', detail: '' };
  if (venue.status === 'unknown') return { status: 'unknown', detail: 'no fresh trading heartbeat' };
  if (venue.status === 'ok') return { status: 'ok', detail: 'positions agree with the exchange' };
  const symbols = venue.drift.map((d) => `${d.symbol} holds ${d.actual}, fills explain ${d.expected}`).join('; ');
  return { status: 'drift', detail: `${symbols} — openings refused; ${venue.resolve ?? ''}`.trim() };
}

/**
 * When a cycle's market data is too old to trade (issue 32: at 1 s cycles with 10 symbols the
 * exchange's throttle made the data 18–20 s old and every opening was refused LIQUIDITY_STALE,
 * silently). The risk engine judges each order alone (./risk/liquidity-guard.ts); this judges the
 * cycle's whole snapshot by the same rule (age at the cycle's time beyond FEED_STALE_MS), so the
 * operator is told once when it starts and once when it ends, not once per refused order.
 */
import type { MarketView } from './market.js';

export interface StaleSymbol {
  symbol: string;
  /** How old its data was at the cycle's time, ms (null: a stamp that is not a number). */
  ageMs: number | null;
}

/** Each symbol's data age at `now` (ms, never negative: a stamp ahead of the clock is fresh data). */
export function marketAges(market: MarketView, now: number): Map<string, number | null> {
  const ages = new Map<string, number | null>();
  for (const [symbol, snapshot] of market) {
    const age = now - snapshot.ts;
    ages.set(symbol, Number.isFinite(age) ? Math.max(0, age) : null);
  }
  return ages;
}

/** The symbols whose data no opening may trade on, the oldest first (the liquidity guard's rule). */
export function staleSymbols(ages: ReadonlyMap<string, number | null>, staleMs: number): StaleSymbol[] {
  return [...ages]
    .filter(([, age]) => !(age !== null && age <= staleMs))
    .map(([symbol, ageMs]) => ({ symbol, ageMs }))
    .sort((a, b) => (b.ageMs ?? Infinity) - (a.ageMs ?? Infinity) || a.symbol.localeCompare(b.symbol));
}

/** A spell of stale data: which symbols, since when (the first cycle that saw it, epoch ms). */
export interface StaleSpell {
  since: number;
  stale: StaleSymbol[];
}

/**
 * The spell after this cycle and whether the operator must be told: when it starts, when the set of
 * stale symbols changes, and when it ends; a cycle that only sees the same symbols age is no news.
 */
export function nextStaleSpell(
  previous: StaleSpell | null,
  stale: readonly StaleSymbol[],
  now: number,
): { spell: StaleSpell | null; changed: boolean } {
  if (stale.length === 0) return { spell: null, changed: previous !== null };
  const names = (list: readonly StaleSymbol[]) =>
    list
      .map((s) => s.symbol)
      .sort()
      .join(',');
  const changed = previous === null || names(previous.stale) !== names(stale);
  return { spell: { since: previous?.since ?? now, stale: stale.map((s) => ({ ...s })) }, changed };
}

/** The operator's sentence for a spell: which symbols, how old, the limit and what it costs. */
export function describeStale(stale: readonly StaleSymbol[], staleMs: number): string {
  const what = stale.map((s) => `${s.symbol} ${s.ageMs === null ? 'of unknown age' : `${Math.round(s.ageMs)} ms old`}`);
  return `market data too old to trade: ${what.join(', ')} (limit FEED_STALE_MS ${staleMs} ms)`;
}

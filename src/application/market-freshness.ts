/**
 * The cycle's market data judged as a whole, after each market read (cycle-io.ts): each symbol's age
 * goes to the metrics every cycle; a spell of data too old to trade (src/domain/stale-market.ts) is an
 * event line and one warning when it starts or its symbols change, a line and an info when it ends,
 * and rides every heartbeat meanwhile so /health can say `degraded` with the symbols and their ages.
 * Before this the only trace was one LIQUIDITY_STALE refusal per order, and none for a cycle whose
 * strategies proposed nothing.
 */
import type { Logger } from 'pino';
import { eventLine } from '../domain/event-lines.js';
import type { MarketView } from '../domain/market.js';
import { describeStale, marketAges, nextStaleSpell, staleSymbols } from '../domain/stale-market.js';
import type { StaleSpell } from '../domain/stale-market.js';
import type { TradingEvents } from '../ports/trading-events.js';

export interface MarketFreshnessDeps {
  /** FEED_STALE_MS: the risk engine's limit, judged the same way. */
  staleMs: number;
  events: TradingEvents;
  log: Pick<Logger, 'warn' | 'info'>;
  metrics: { observeMarketAges(ages: ReadonlyMap<string, number | null>): void };
}

export interface MarketFreshness {
  /** The cycle's market as read, at the cycle's time (the `now` its orders are judged at). */
  judged(market: MarketView, now: number): void;
  /** What the heartbeat carries: the limit and the spell now (null: every symbol fresh). */
  current(): { limitMs: number; spell: StaleSpell | null };
}

export function createMarketFreshness(deps: MarketFreshnessDeps): MarketFreshness {
  let spell: StaleSpell | null = null;
  return {
    judged(market, now) {
      const ages = marketAges(market, now);
      deps.metrics.observeMarketAges(ages);
      const next = nextStaleSpell(spell, staleSymbols(ages, deps.staleMs), now);
      const ended = spell !== null && next.spell === null;
      spell = next.spell;
      if (!next.changed) return;
      deps.events.emit(eventLine.marketDataStale(spell?.stale ?? [], deps.staleMs));
      if (ended) deps.log.info('market data fresh again: openings judged as usual');
      else if (spell)
        deps.log.warn(
          { stale: spell.stale, limitMs: deps.staleMs },
          `${describeStale(spell.stale, deps.staleMs)}; openings in ${spell.stale.length === 1 ? 'it' : 'them'} are refused LIQUIDITY_STALE until it is fresh`,
        );
    },
    current: () => ({ limitMs: deps.staleMs, spell }),
  };
}

/**
 * What the console shows of the market data's age (issue 32), from /health's `market_data`
 * component: the Health panel's row — `stale` names each symbol too old to trade with its age and the
 * limit (openings in it refused until the data is fresh). Pure, tested without a browser.
 */
import type { Health } from './types.js';

export type MarketDataHealth = Health['components']['market_data'];

export function marketDataRow(market: MarketDataHealth | undefined): { status: string; detail: string } {
  if (!market) return { status: '—', detail: '' };
  if (market.status === 'unknown') return { status: 'unknown', detail: 'no cycle reported yet' };
  if (market.status === 'ok') return { status: 'ok', detail: `every symbol within ${market.limit_ms ?? '?'} ms` };
  const symbols = market.stale
    .map((s) => `${s.symbol} ${s.age_ms === null ? 'of unknown age' : `${s.age_ms} ms old`}`)
    .join('; ');
  return {
    status: 'stale',
    detail: `${symbols} (limit ${market.limit_ms ?? '?'} ms) — openings refused LIQUIDITY_STALE`,
  };
}

/**
 * /health's `reason`: why an answer is not `ok`, in words, from its components, so that `degraded`
 * or `down` is never said without the cause (and the command that ends it, where one does).
 */
import { describeStale } from '../domain/stale-market.js';
import type { Health } from './health.js';

export function healthReason(body: Health): string | null {
  if (body.status === 'ok') return null;
  const { store, event_store: events, trading_process: trading } = body.components;
  const why: string[] = [];
  if (store.status === 'down') {
    why.push(`the store is down (${store.reason ?? 'unknown'}): ${store.error ?? ''}`.trim());
    if (store.resolve)
      why.push(
        store.reason === 'not_initialised'
          ? `to initialise it: ${store.resolve}`
          : `to accept this store on purpose: ${store.resolve}`,
      );
    return why.join('; ');
  }
  if (events.status !== 'ok') why.push('the event store did not answer');
  if (trading.status === 'halted') {
    why.push(
      `trading process ${trading.reason ?? 'halted'}; it opens no new exposure and resumes by itself when the cause ends`,
    );
  } else if (trading.reason) {
    why.push(`trading process ${trading.status}: ${trading.reason}`);
    if (trading.resolve) why.push(`to accept this store on purpose: ${trading.resolve}`);
  } else if (trading.status === 'unknown') {
    why.push('no heartbeat from the trading process yet (starting, or not running)');
  } else if (trading.status === 'stale') {
    why.push(`the trading process's heartbeat is ${trading.heartbeat_age_ms ?? '?'} ms old (stopped or frozen)`);
  }
  const failing = body.components.strategies;
  if (failing.status === 'failing')
    why.push(
      `strategy ${failing.failing.map((a) => `${a.agent} failing (${a.symbol}: ${a.message})`).join(', ')}: see the agent_error lines`,
    );
  const risk = body.components.risk;
  if (risk.status === 'reducing') {
    why.push(
      `risk engine reducing since ${risk.since ?? 'an unrecorded time'} (${risk.reason ?? '?'}): only closes pass`,
    );
    if (risk.resolve) why.push(`to end it: ${risk.resolve}`);
  }
  const venue = body.components.venue;
  if (venue.status === 'drift') {
    why.push(
      `position drift: ${venue.drift.map((d) => `${d.symbol} holds ${d.actual}, the system's fills explain ${d.expected}`).join(', ')}; openings refused`,
    );
    if (venue.resolve) why.push(`to end it: ${venue.resolve}`);
  }
  // Held for the request weight: openings (and at the limit everything) wait for the minute to roll.
  if (venue.request_weight?.reason) why.push(venue.request_weight.reason);
  const positions = body.components.positions;
  if (positions.status === 'orphaned') {
    const what = positions.orphaned
      .map(
        (o) =>
          `${o.symbol} ${o.qty} (${o.why === 'symbol_not_listed' ? 'not in SYMBOLS' : `strategy ${o.agent ?? '?'} not in STRATEGIES`})`,
      )
      .join(', ');
    why.push(`orphaned positions no configured strategy closes: ${what}`);
    if (positions.resolve) why.push(`to close them: ${positions.resolve}`);
  }
  const market = body.components.market_data;
  if (market.status === 'stale') {
    const stale = market.stale.map((s) => ({ symbol: s.symbol, ageMs: s.age_ms }));
    const where = stale.length === 1 ? 'it' : 'them';
    why.push(`${describeStale(stale, market.limit_ms ?? Number.NaN)}; openings in ${where} refused LIQUIDITY_STALE`);
  }
  return why.length > 0 ? why.join('; ') : null;
}

/**
 * The optional drawdown circuit breaker: when NAV has fallen `threshold` or more from its peak, it
 * pulls the same kill switch as the API (the store transition plus the durable cancel command) and
 * then flattens (the kill-switch's `flatten: true`): a kill alone only cancels orders and leaves the
 * open positions to a market that keeps moving. The kill is recorded first, so a failing flatten
 * request never loses or delays it. Audited as `trading:circuit-breaker`. Returns the stored record after a trip, for the caller to
 * bring its root actor to; null when nothing tripped.
 */
import type { ControlRecord } from '../domain/control.js';
import type { Instrument } from '../domain/market.js';
import type { AccountSnapshot } from '../domain/portfolio.js';
import type { Store } from '../ports/store.js';
import { killFlattenId } from '../domain/commands.js';
import { requestFlatten } from './flatten.js';
import { pullKillSwitch } from './kill-switch.js';

/** The drawdown from peak NAV (0 when there is no peak yet). */
export function drawdownOf(account: AccountSnapshot): number {
  return account.peakNav > 0 ? (account.peakNav - account.nav) / account.peakNav : 0;
}

export async function checkCircuitBreaker(
  store: Store,
  instruments: readonly Instrument[],
  account: AccountSnapshot,
  threshold: number | null,
  at: string,
): Promise<ControlRecord | null> {
  if (threshold === null) return null;
  const drawdown = drawdownOf(account);
  if (drawdown < threshold) return null;
  const percent = (x: number) => `${(x * 100).toFixed(2)}%`;
  const reason = `drawdown circuit breaker: ${percent(drawdown)} from peak NAV ≥ ${percent(threshold)}`;
  const actor = 'trading:circuit-breaker';
  const { result } = await pullKillSwitch(store, instruments, reason, { actor, at });
  const id = killFlattenId(result.record.epoch);
  await requestFlatten(store, { id, symbols: null, reason, actor, at, via: 'circuit_breaker' });
  return result.record;
}

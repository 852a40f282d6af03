/**
 * Waiting until the trading system is quiet: no cycle runs, the order manager has no work and no
 * deleverage, flatten or drawdown-reset actor is working. Tests and simulations call it after each step; a stop calls it so the
 * current step's decision reaches the event store.
 */
import { waitFor } from 'xstate';
import type { Actor, SnapshotFrom } from 'xstate';
import { findOms } from '../../../machines/system.js';
import type { tradingMachine } from '../../../machines/trading.machine.js';

export async function settle(actor: Actor<typeof tradingMachine>, timeoutMs: number): Promise<void> {
  // Monotonic, as every deadline here: a wall-clock step must not cut it short or stretch it.
  const deadline = performance.now() + timeoutMs;
  // Each waitFor arms a timer and a subscription; a simulation settles every cycle, and the order
  // manager is idle in most of them, so what already holds is not waited for.
  const cycleDone = (s: SnapshotFrom<typeof actor>) => !s.matches({ control: { running: 'cycling' } });
  if (!cycleDone(actor.getSnapshot())) await waitFor(actor, cycleDone, { timeout: timeoutMs });
  const oms = findOms(actor.system);
  const omsIdle = (s: SnapshotFrom<NonNullable<typeof oms>>) => s.matches({ work: 'idle' });
  if (oms && !omsIdle(oms.getSnapshot())) await waitFor(oms, omsIdle, { timeout: timeoutMs });
  // Deleverage and drawdown-reset actors and a halt's recovery finish on their own turns after the order manager answers them.
  while (busyChildren(actor)) {
    if (performance.now() > deadline)
      throw new Error(`a deleverage, drawdown reset or halt recovery was still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function busyChildren(actor: Actor<typeof tradingMachine>): boolean {
  return Object.entries(actor.getSnapshot().children).some(
    ([id, child]) =>
      (id.startsWith('deleverage:') ||
        id.startsWith('flatten:') ||
        id.startsWith('risk-reset:') ||
        id === 'halt-recovery') &&
      child?.getSnapshot().status === 'active',
  );
}

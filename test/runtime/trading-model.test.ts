/**
 * Model-based tests of the trading process: paths from the control statechart drive the REAL actor
 * system (paper venue, real store, SimulatedClock). Control events are applied to the store exactly
 * as the API applies them and reach the root actor by the store's notification. In every state:
 *  - running: cycles run and the test strategy's orders are submitted (it moves its target every
 *    cycle, so each cycle trades: a strategy that holds one target would trade once and then hold);
 *  - paused: no cycle runs and nothing is submitted, however much time passes (open orders stay);
 *  - killed: every open order is cancelled, no cycle runs, nothing is submitted, ever.
 * Afterwards every decision that submitted an order was approved in the epoch it was submitted in,
 * and the audit chain verifies.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ControlEvent } from '../../src/domain/control.js';
import { CONTROL_PATHS } from '../support/control-model.js';
import { STORE_KINDS } from '../support/stores.js';
import { openTestTrading } from '../support/trading.js';
import { fileURLToPath } from 'node:url';

const ALTERNATING = fileURLToPath(new URL('../fixtures/strategies/btc-alternating.ts', import.meta.url));
import type { TestTrading } from '../support/trading.js';
import { applyControl } from '../../src/application/control-transition.js';

const CYCLE = 60_000;
describe.each(STORE_KINDS)('trading actor system follows the control statechart on %s', (kind) => {
  let t: TestTrading | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const count = (event: string) => t!.events(event).length;
  const reach = (state: string) =>
    vi.waitFor(() => expect(t!.system.state()).toBe(state), { timeout: 3000, interval: 5 });
  const apply = async (event: ControlEvent) => {
    await applyControl(t!.store.control, event, { actor: 'model-test', at: new Date(t!.clock.now()).toISOString() });
    await t!.system.settled();
  };

  for (const path of CONTROL_PATHS) {
    it(path.description.replace(/ \(\{"reason":"model"\}\)/g, ''), async () => {
      t = await openTestTrading(kind, { STRATEGIES: ALTERNATING });
      await path.test({
        states: {
          running: async () => {
            await reach('running');
            await t!.system.settled(); // a resume starts a cycle at once; let it finish first
            const [cycles, submitted] = [count('cycle_start'), count('order_submitted')];
            await t!.advance(CYCLE);
            expect(count('cycle_start')).toBe(cycles + 1);
            expect(count('cycle_end')).toBe(cycles + 1);
            // One order, or two when a filled position flips (a reduce-only close, then the opening order).
            expect(count('order_submitted')).toBeGreaterThanOrEqual(submitted + 1);
            expect(count('order_submitted')).toBeLessThanOrEqual(submitted + 2);
          },
          paused: async () => {
            await reach('paused');
            const open = (await t!.system.venue.openOrders()).length;
            const [cycles, submitted] = [count('cycle_start'), count('order_submitted')];
            await t!.advance(3 * CYCLE);
            expect(count('cycle_start')).toBe(cycles);
            expect(count('order_submitted')).toBe(submitted);
            // Pausing does not cancel: resting orders stay.
            expect((await t!.system.venue.openOrders()).length).toBe(open);
          },
          killed: async () => {
            await reach('killed');
            await vi.waitFor(async () => expect(await t!.system.venue.openOrders()).toHaveLength(0), {
              timeout: 3000,
              interval: 5,
            });
            const [cycles, submitted] = [count('cycle_start'), count('order_submitted')];
            await t!.advance(3 * CYCLE);
            expect(count('cycle_start')).toBe(cycles);
            expect(count('order_submitted')).toBe(submitted);
            expect(t!.system.actor.getSnapshot().status).toBe('active'); // alive for cancels and deleverage
          },
        },
        events: {
          'control.pause': () => apply({ type: 'control.pause', reason: 'model' }),
          'control.resume': () => apply({ type: 'control.resume', reason: 'model' }),
          'control.kill': () => apply({ type: 'control.kill', reason: 'model' }),
        },
      });

      // Every submitted order was approved in the epoch it was submitted in (the decision's epoch).
      const decisions = await t.store.events.query({ kind: 'decision', limit: 1000 });
      const controls = (await t.store.events.query({ kind: 'control', limit: 1000 })).reverse();
      for (const d of decisions) {
        const body = d.body as { epoch: number; submissions: Array<{ status: string }> };
        if (!body.submissions.some((s) => s.status === 'submitted')) continue;
        const epochAtRecord = controls
          .filter((c) => c.seq < d.seq)
          .reduce((e, c) => (c.body as { epoch: number }).epoch, 0);
        expect(body.epoch, `decision seq ${d.seq}`).toBe(epochAtRecord);
      }
      expect((await t.store.events.verify()).ok).toBe(true);
    });
  }
});

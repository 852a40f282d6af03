/**
 * A stop that outlives the process (issue 32, item 4), as real processes against the fake exchange:
 * `tcs start` (supervisor, API, trader) in a process group of its own opens a long with STOP_LOSS
 * set; a close-position STOP_MARKET rests on the exchange. The whole group is SIGKILLed: far past the
 * dead-man's switch's countdown the stop still rests. A restarted trader adopts it as ours: it is
 * neither cancelled as foreign nor placed a second time.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../src/domain/keys.js';
import { openLiveE2e } from '../support/live-e2e.js';
import type { LiveE2e } from '../support/live-e2e.js';
import { childPids, isRunning } from '../support/processes.js';

const LONG = fileURLToPath(new URL('../fixtures/strategies/btc-always-long.js', import.meta.url));

let e: LiveE2e | undefined;

afterAll(async () => {
  await e?.close();
});

/** Every process of the tree under `pid`, itself included. */
function tree(pid: number): number[] {
  return [pid, ...childPids(pid).flatMap(tree)];
}

describe('an exchange stop outlives the system (fake exchange)', () => {
  it('SIGKILL of the whole system with an open position leaves the stop; a restart adopts it as ours', async () => {
    e = await openLiveE2e('tcs-live-stop-');
    const { t, waitUntil } = e;
    const env = e.env({
      SERVICE_API_KEY: generateKey(),
      PORT: '0',
      STRATEGIES: LONG,
      STOP_LOSS: '0.02',
      // The restarted trader takes the SIGKILLed one's lease after watching it stand still for a whole
      // lease: 4.5 s rather than the default 10 s of waiting (STORE_LOSS_HALT_MS's 3 s default is
      // still at most two thirds of it). What this test checks does not depend on the lease's length.
      TRADING_LEASE_MS: '4500',
    });
    const stops = () => t.fake.venue.algo.open('BTCUSDT');
    const held = () => t.fake.venue.account().positions.find((p) => p.symbol === 'BTCUSDT')?.qty ?? 0;
    const system = e.start(['start'], env, { cwd: e.dir, detached: true });
    await waitUntil(() => held() > 0 && stops().length === 1, 60_000, 'a position with a stop on the exchange');
    const [stop] = stops();
    expect(stop).toMatchObject({ side: 'SELL', closePosition: true, reduceOnly: true, workingType: 'MARK_PRICE' });
    const entry = t.fake.venue.ledger.position('BTCUSDT').entryPrice;
    expect(stop!.triggerPrice).toBeCloseTo(entry * 0.98, 0);

    // The whole system, at once: supervisor, API and trader.
    const pids = tree(system.child.pid!);
    expect(pids.length).toBeGreaterThanOrEqual(3);
    process.kill(-system.child.pid!, 'SIGKILL');
    await system.exited;
    await waitUntil(() => pids.every((pid) => !isRunning(pid)), 10_000, 'every process of the system gone');
    const left = stops();
    expect(left).toHaveLength(1);
    // The dead-man's switch is not armed over it: when it runs out, nothing takes the stop.
    expect(t.fake.venue.countdowns.deadline('BTCUSDT')).toBeNull();

    const posts = () => t.fake.calls.filter((c) => c.method === 'POST' && c.url.startsWith('/fapi/v1/algoOrder'));
    const placedBefore = posts().length;
    const trader = e.start(['trade'], env);
    await trader.waitFor(/"event":"cycle_end","cycle":3,/, 30_000);
    expect(trader.stdout()).not.toMatch(/"reason":"foreign_orders"/);
    expect(stops().map((o) => o.algoId)).toEqual(left.map((o) => o.algoId));
    expect(posts()).toHaveLength(placedBefore);

    // Killed again; far past the countdown a live trader arms (3 cycles, at least 10 s), the stop rests.
    trader.child.kill('SIGKILL');
    await trader.exited;
    t.advance(600_000);
    expect(stops().map((o) => o.algoId)).toEqual(left.map((o) => o.algoId));
    expect(held()).toBeGreaterThan(0);
  }, 120_000);
});

/**
 * A restart continues market time and cycle numbers (issue 9): the trading system stopped and
 * started again on the same store marks the account one normal market step on from where it
 * stopped (the synthetic path is resumed from the checkpoint in the store, not replayed from its
 * seed), and the first cycle after the restart is the last recorded cycle + 1, so no cycle number
 * repeats in the audit trail. On both store kinds.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MARKET_CHECKPOINT_KEY } from '../../src/application/market-time.js';
import { PORTFOLIO_KEY, REPLAY_CURSOR_KEY } from '../../src/domain/runtime-documents.js';
import type { Store } from '../../src/ports/store.js';
import { STORE_KINDS, openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';
import { readDocument } from '../../src/ports/documents.js';

const MINUTE = 60_000;
/** Market orders fill at once, so the account holds a BTC position marked every cycle. */
const MARKET_ORDERS = { ORDER_STYLE: 'market' };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** The BTC closes the market had reached (from its stored checkpoint) and the account's BTC mark. */
async function btcState(store: Store) {
  const checkpoint = (await store.kv.get(MARKET_CHECKPOINT_KEY)) as {
    steps: number;
    symbols: Record<string, { closes: number[] }>;
  } | null;
  const account = await readDocument(store.kv, PORTFOLIO_KEY);
  const mark = account?.positions.find((p) => p.symbol === 'BTCUSDT')?.markPrice;
  return { closes: checkpoint?.symbols.BTCUSDT?.closes ?? [], steps: checkpoint?.steps ?? -1, mark };
}

/** The account is marked at the market's last price (or at a fill inside the spread around it). */
function nearLast(state: { closes: number[]; mark: number | undefined }): boolean {
  const last = state.closes.at(-1);
  return last !== undefined && state.mark !== undefined && Math.abs(state.mark / last - 1) < 1e-3;
}

async function decisionCycles(store: Store): Promise<number[]> {
  const entries = await store.events.query({ kind: 'decision', limit: 100 });
  return entries.map((e) => e.body.cycle as number).reverse();
}

describe.each(STORE_KINDS)('restart on the same store (%s)', (kind) => {
  it('continues the market path and the cycle numbers instead of starting over', async () => {
    const testStore: TestStore = await openTestStore(kind);
    cleanups.push(() => testStore.cleanup());
    const first: TestTrading = await openTestTrading(kind, MARKET_ORDERS, testStore);
    for (let i = 0; i < 4; i++) await first.advance(MINUTE);
    const before = await btcState(testStore.store);
    expect(first.events('cycle_end').map((l) => l.cycle)).toEqual([1, 2, 3, 4, 5]);
    expect(before.steps).toBe(5);
    expect(nearLast(before)).toBe(true);
    await first.system.stop('restart');

    const second = await openTestTrading(kind, MARKET_ORDERS, testStore);
    cleanups.push(() => second.close());
    const after = await btcState(testStore.store);
    // One step on: the window moved by exactly one close, and the account is marked at the new one.
    expect(after.steps).toBe(6);
    expect(after.closes.slice(0, -1)).toEqual(before.closes.slice(1));
    expect(nearLast(after)).toBe(true);
    expect(Math.abs(Math.log((after.mark ?? 0) / (before.mark ?? 1)))).toBeLessThan(0.02);
    expect(second.events('cycle_start').map((l) => l.cycle)).toEqual([6]);
    await second.advance(MINUTE);
    expect(await decisionCycles(testStore.store)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('restart of a historical replay (sqlite)', () => {
  it("continues at the next candle instead of the data's first one", async () => {
    const fixture = new URL('../fixtures/market-data/good', import.meta.url).pathname;
    // The funding agent alone declares one bar: no warm-up, so the replay starts at the fixture's first candle.
    const env = {
      ...MARKET_ORDERS,
      MARKET_DATA: `file:${fixture}`,
      SYMBOLS: 'BTCUSDT,ETHUSDT:spot',
      STRATEGIES: 'funding_rate_contrarian',
    };
    const testStore: TestStore = await openTestStore('sqlite');
    cleanups.push(() => testStore.cleanup());
    const first: TestTrading = await openTestTrading('sqlite', env, testStore);
    for (let i = 0; i < 2; i++) await first.advance(MINUTE);
    // The fixture's BTC closes are 42010.5, 42020.5, … one candle per cycle.
    const before = (await readDocument(testStore.store.kv, REPLAY_CURSOR_KEY))?.next;
    expect(before).toBe(1704067200000 + 3 * MINUTE);
    await first.system.stop('restart');

    const second = await openTestTrading('sqlite', env, testStore);
    cleanups.push(() => second.close());
    // The first cycle after the restart read the fourth candle, not the first one again.
    expect((await readDocument(testStore.store.kv, REPLAY_CURSOR_KEY))?.next).toBe(1704067200000 + 4 * MINUTE);
  });
});

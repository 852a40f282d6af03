/**
 * Review finding (issue 20, item 1): the cancel of resting orders that could add risk
 * (src/application/cycle-io.ts, cancelOpeningOrdersInBreach) is keyed on the account's drawdown
 * before the market's fills, not on the risk engine's state. The engine can be `reducing` with the
 * drawdown under RISK_MAX_DRAWDOWN — it does not end on a bounce, it survives a restart with a looser
 * limit, and it can be entered in a cycle whose pre-fill drawdown was under the limit (a fill at a
 * resting limit, funding, a liquidation fee) — and then an opening order that was resting before is
 * neither cancelled nor stopped: the venue fills it and adds exposure while `reducing`.
 * The state is arranged: a resting passive BUY from an `active` process, then `reducing` stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { riskStateOf } from '../../machines/system.js';
import { RISK_STATE_KEY } from '../../src/domain/runtime-documents.js';
import { readDocument, writeDocument } from '../../src/ports/documents.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

const MINUTE = 60_000;

describe('reducing with an opening order resting from before', () => {
  let store: TestStore | undefined;
  let t: TestTrading | undefined;
  afterEach(async () => {
    await t?.close();
    await store?.cleanup();
    t = store = undefined;
  });

  it('no opening order fills while the engine is reducing', async () => {
    store = await openTestStore('sqlite');
    t = await openTestTrading('sqlite', { RISK_MAX_DRAWDOWN: '0.5' }, store);
    const resting = async () =>
      (await t!.system.venue.account()).openOrders.filter((o) => o.status === 'open' && !o.reduceOnly);
    for (let i = 0; i < 20 && (await resting()).length === 0; i++) await t.advance(MINUTE);
    const before = await resting();
    expect(before.length).toBeGreaterThan(0);
    const peak = (await t.system.venue.account()).peakNav;
    await t.close();
    t = undefined;
    await writeDocument(store.store.kv, RISK_STATE_KEY, {
      state: 'reducing',
      since: Date.UTC(2026, 0, 5, 12, 0, 0),
      reason: 'drawdown 10.40% from peak NAV … exceeds RISK_MAX_DRAWDOWN 10.00%',
      peakNav: peak,
    });
    expect(await readDocument(store.store.kv, RISK_STATE_KEY)).toMatchObject({ state: 'reducing' });

    t = await openTestTrading('sqlite', { RISK_MAX_DRAWDOWN: '0.5' }, store);
    expect(riskStateOf(t.system.actor.system)?.state).toBe('reducing');
    const ids = new Set(before.map((o) => o.clientOrderId));
    for (let i = 0; i < 10; i++) await t.advance(MINUTE);
    expect(riskStateOf(t.system.actor.system)?.state).toBe('reducing');
    // An order approved in `active` must not open exposure during `reducing`.
    const filled = t.events('order_filled').filter((l) => ids.has(l.client_order_id as string));
    expect(filled).toEqual([]);
  });
});

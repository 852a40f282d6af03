/**
 * The risk engine's state survives a restart (issue 20, item 1; "a fault is a fault, never a fresh
 * start"): a process stopped while `reducing` starts again `reducing`, with the same reference, also
 * when prices have recovered meanwhile; a kill is `halted`, stored, and a restart on the killed store
 * starts halted without announcing anything new. Through the whole actor system on a real SQLite store.
 */
import { waitFor } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import { riskStateOf } from '../../machines/system.js';
import { applyControl } from '../../src/application/control-transition.js';
import { HEARTBEAT_KEY, RISK_STATE_KEY } from '../../src/domain/runtime-documents.js';
import { readDocument } from '../../src/ports/documents.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

const MINUTE = 60_000;
const LIMIT = '0.0002';

describe('the risk state over a restart', () => {
  let store: TestStore | undefined;
  let t: TestTrading | undefined;
  afterEach(async () => {
    await t?.close();
    await store?.cleanup();
    t = store = undefined;
  });

  const open = async (env: Record<string, string> = {}) =>
    (t = await openTestTrading(
      'sqlite',
      { ORDER_STYLE: 'market', RISK_FRACTION: '1', RISK_MAX_DRAWDOWN: LIMIT, ...env },
      store,
    ));
  const riskState = () => riskStateOf(t!.system.actor.system)?.state;

  it('reducing is stored with its reference and resumed by the next process', async () => {
    store = await openTestStore('sqlite');
    await open();
    for (let i = 0; i < 30 && riskState() !== 'reducing'; i++) await t!.advance(MINUTE);
    expect(riskState()).toBe('reducing');
    const stored = await readDocument(store.store.kv, RISK_STATE_KEY);
    expect(stored).toMatchObject({ state: 'reducing', peakNav: 100_000 });
    expect(stored!.reason).toMatch(/exceeds RISK_MAX_DRAWDOWN 0\.02%/);
    const [audit] = await store.store.events.query({ kind: 'risk_state', limit: 1 });
    expect(audit?.body).toMatchObject({ from: 'active', to: 'reducing', peak_nav: 100_000 });
    expect((await readDocument(store.store.kv, HEARTBEAT_KEY))?.risk).toMatchObject({ state: 'reducing' });
    await t!.close();

    // A looser limit after the restart: the account is within it, but the breach's reference has not
    // changed, so the engine stays reducing (only a reset or the window end it).
    await open({ RISK_MAX_DRAWDOWN: '0.5' });
    expect(riskState()).toBe('reducing');
    expect(riskStateOf(t!.system.actor.system)).toEqual(stored);
    await t!.advance(MINUTE);
    expect(riskState()).toBe('reducing');
    expect(t!.events('risk_state_changed')).toEqual([]);
    expect(await t!.system.metrics.riskState.get()).toMatchObject({
      values: expect.arrayContaining([expect.objectContaining({ labels: { state: 'reducing' }, value: 1 })]),
    });
  });

  it('a kill halts the engine, stored; a restart on the killed store starts halted and says nothing new', async () => {
    store = await openTestStore('sqlite');
    await open({ RISK_MAX_DRAWDOWN: '0.5' });
    await applyControl(
      store.store.control,
      { type: 'control.kill', reason: 'drill' },
      { actor: 'test', at: new Date(t!.clock.now()).toISOString() },
    );
    await waitFor(t!.system.actor, (s) => s.context.state === 'killed', { timeout: 5_000 });
    await t!.advance(0);
    expect(riskState()).toBe('halted');
    expect(t!.events('risk_state_changed')).toEqual([
      expect.objectContaining({ from: 'active', to: 'halted', reason: 'killed: drill', drawdown: null }),
    ]);
    expect(await readDocument(store.store.kv, RISK_STATE_KEY)).toMatchObject({
      state: 'halted',
      reason: 'killed: drill',
    });
    await t!.close();

    await open({ RISK_MAX_DRAWDOWN: '0.5' });
    expect(riskState()).toBe('halted');
    expect(t!.events('risk_state_changed')).toEqual([]);
  });
});

/**
 * The control use cases on a real SQLite store: each call answers a result (never an HTTP error),
 * and a refused or invalid call leaves the control record and the command queue as they were.
 * Refusals by the statechart are still audited (that is the audit's purpose); invalid symbols are
 * not, as nothing was offered to the statechart.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ControlApplyResult } from '../../src/domain/control.js';
import { parseInstruments } from '../../src/domain/instruments.js';
import { PORTFOLIO_KEY } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';
import { ControlPlane } from '../../src/application/control-plane.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const NOW = Date.UTC(2026, 0, 5);
const CLAIM = { max: 100, leaseMs: 60_000, now: NOW };

describe('ControlPlane on sqlite', () => {
  let t: TestStore;
  let plane: ControlPlane;
  let outcomes: ControlApplyResult[];
  beforeEach(async () => {
    t = await openTestStore('sqlite');
    outcomes = [];
    plane = new ControlPlane(t.store, parseInstruments('BTCUSDT,SOLUSDT:spot'), { now: () => NOW }, (r) =>
      outcomes.push(r),
    );
  });
  afterEach(async () => t.cleanup());

  it('pause answers ok with changed=true, then changed=false with the same epoch', async () => {
    const first = await plane.transition({ type: 'control.pause', reason: 'maintenance' }, 'k1');
    expect(first).toEqual({
      ok: true,
      value: {
        state: 'paused',
        previous_state: 'running',
        changed: true,
        epoch: 1,
        reason: 'maintenance',
        changed_at: new Date(NOW).toISOString(),
      },
    });
    const again = await plane.transition({ type: 'control.pause', reason: 'again' }, 'k1');
    expect(again).toMatchObject({ ok: true, value: { state: 'paused', changed: false, epoch: 1 } });
    expect(outcomes.map((o) => o.outcome)).toEqual(['changed', 'unchanged']);
  });

  it('killed then resume: a state conflict, and the record and the command queue are unchanged', async () => {
    const kill = await plane.kill('test kill', 'k1');
    expect(kill).toEqual({
      ok: true,
      value: {
        action: 'killed',
        reason: 'test kill',
        cancel_instructions: [
          { tool: 'cancel_all_orders', symbol: 'BTCUSDT' },
          { tool: 'cancel_spot_all_orders', symbol: 'SOLUSDT' },
        ],
      },
    });
    const killed = await t.store.control.read();
    const eventsBefore = await t.store.events.count();

    for (const type of ['control.resume', 'control.pause'] as const) {
      const result = await plane.transition({ type, reason: 'try' }, 'k1');
      expect(result).toEqual({ ok: false, error: 'state_conflict', message: expect.stringMatching(/is killed/) });
    }

    expect(await t.store.control.read()).toEqual(killed);
    // Two refusals audited, nothing else written; the only command is the kill's cancels.
    expect(await t.store.events.count()).toBe(eventsBefore + 2);
    const refusals = await t.store.events.query({ kind: 'control', limit: 2 });
    expect(refusals.map((e) => e.body.outcome)).toEqual(['refused', 'refused']);
    const queued = await t.store.commands.claim('test', CLAIM);
    expect(queued.map((c) => c.id)).toEqual([`kill-cancels-epoch-${killed.epoch}`]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['changed', 'refused', 'refused']);
  });

  it('a cancel-all of an unknown symbol answers unknown_symbol and writes nothing', async () => {
    const before = await t.store.events.count();
    expect(await plane.cancelAll(['BTCUSDT', 'DOGEUSDT'], 'k1')).toEqual({
      ok: false,
      error: 'unknown_symbol',
      message: 'unknown symbol DOGEUSDT: not in the whitelist',
    });
    expect(await t.store.events.count()).toBe(before);
    expect(await t.store.commands.claim('test', CLAIM)).toEqual([]);
  });

  it('a deleverage of a symbol not whitelisted and not held answers "no open position", as for a listed one', async () => {
    const result = await plane.deleverage('ETHUSDT', 0.5, 'k1');
    expect(result).toMatchObject({ ok: true, value: { symbol: 'ETHUSDT', order: null, command_id: null } });
    expect(await t.store.commands.claim('test', CLAIM)).toEqual([]);
  });

  it('cancel-all and deleverage answer ok and queue exactly the commands they name', async () => {
    const cancel = await plane.cancelAll(null, 'k1');
    if (!cancel.ok) throw new Error(`expected ok, got ${cancel.error}`);
    expect(cancel.value.cancel_instructions.map((i) => i.symbol)).toEqual(['BTCUSDT', 'SOLUSDT']);

    const flat = await plane.deleverage('BTCUSDT', 0.5, 'k1');
    expect(flat).toMatchObject({ ok: true, value: { order: null, command_id: null, position_qty: 0 } });

    const published = SAMPLE_DOCUMENTS[PORTFOLIO_KEY];
    const position = { ...published.positions[0]!, symbol: 'BTCUSDT', qty: 2 };
    await writeDocument(t.store.kv, PORTFOLIO_KEY, { ...published, positions: [position] });
    const reduce = await plane.deleverage('BTCUSDT', 0.5, 'k1');
    if (!reduce.ok) throw new Error(`expected ok, got ${reduce.error}`);
    expect(reduce.value.order).toEqual({ symbol: 'BTCUSDT', side: 'SELL', qty: 1, type: 'market', reduce_only: true });

    const queued = await t.store.commands.claim('test', CLAIM);
    expect(queued.map((c) => c.id).sort()).toEqual([cancel.value.command_id, reduce.value.command_id].sort());
  });
});

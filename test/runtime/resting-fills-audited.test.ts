/**
 * Every fill is in the audit trail (issue 35, found by the console's helper): a passive order that
 * rests and fills in a later cycle was reported by the venue's `onMarket` and turned into an
 * `order_filled` event line only, while the decision entry holds the fills at submission. So the
 * notifier, the console's trades and `tcs audit export` never saw it. Here every fill told on stdout
 * must be accounted for by the audit trail: a decision's fill at submission, or an `order_filled`
 * entry of its own (quantities summed per client order id).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openTestTrading } from '../support/trading.js';
import type { TestTrading } from '../support/trading.js';

const MINUTE = 60_000;

/** Filled quantity per client order id, summed. */
function byOrder(rows: Array<{ id: string; qty: number }>): Map<string, number> {
  const out = new Map<string, number>();
  for (const { id, qty } of rows) out.set(id, (out.get(id) ?? 0) + qty);
  return out;
}

describe('fills of resting orders are audited', () => {
  let t: TestTrading | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it.each(['sqlite', 'redis'] as const)('on %s: each fill on stdout is in the audit trail', async (kind) => {
    t = await openTestTrading(kind);
    for (let i = 0; i < 30; i++) await t.advance(MINUTE);

    const told = t.events('order_filled').map((l) => ({ id: l.client_order_id as string, qty: l.qty as number }));
    const decisions = await t.store.events.query({ kind: 'decision', limit: 1000 });
    const atSubmission = decisions.flatMap((d) =>
      ((d.body.submissions as Array<Record<string, unknown>> | undefined) ?? [])
        .filter((s) => typeof s.filledQty === 'number' && s.filledQty > 0)
        .map((s) => ({ id: s.clientOrderId as string, qty: s.filledQty as number })),
    );
    const later = (await t.store.events.query({ kind: 'order_filled', limit: 1000 })).map((e) => ({
      id: e.body.client_order_id as string,
      qty: e.body.qty as number,
    }));
    // The run must have fills of resting orders at all, else this proves nothing.
    const submittedIds = new Set(atSubmission.map((f) => f.id));
    expect(told.filter((f) => !submittedIds.has(f.id)).length).toBeGreaterThan(0);

    const audited = byOrder([...atSubmission, ...later]);
    for (const [id, qty] of byOrder(told)) expect(audited.get(id), id).toBeCloseTo(qty, 9);
    expect(audited.size).toBe(byOrder(told).size);
  });

  it('an order_filled entry says what filled, when, and that it filled while resting', async () => {
    t = await openTestTrading('sqlite');
    for (let i = 0; i < 30; i++) await t.advance(MINUTE);
    const [entry] = await t.store.events.query({ kind: 'order_filled', limit: 1 });
    expect(entry).toBeDefined();
    expect(entry!.symbol).toBe(entry!.body.symbol);
    expect(entry!.body).toMatchObject({
      side: expect.stringMatching(/^(BUY|SELL)$/),
      qty: expect.any(Number),
      price: expect.any(Number),
      fee: expect.any(Number),
      liquidity: 'maker',
      client_order_id: expect.any(String),
      filled_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      source: 'resting',
    });
  });
});

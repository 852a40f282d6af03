/**
 * Idempotency on clientOrderId, what is particular to the paper venue: a known id returns the stored
 * order with duplicate: true and writes nothing, whatever the resubmission says, for rejected orders
 * too. A resting order resubmitted and concurrent resubmissions are the Venue contract's
 * (test/contracts/venue.contract.ts), which every venue runs.
 */
import { describe, expect, it } from 'vitest';
import { openHarness, order, snapshot, view } from './fixtures.js';

const market = view(snapshot({ bid: 99, ask: 101 }));

describe('paper venue: idempotent submit', () => {
  it('returns the filled order with duplicate: true and does not trade again', async () => {
    const { venue, kv } = await openHarness();
    const request = order({ side: 'BUY', qty: 1, clientOrderId: 'abc-1' });
    const first = await venue.submit(request, market);
    const before = await venue.account();
    const writes = kv.sets;
    const second = await venue.submit(request, view(snapshot({ bid: 50, ask: 51 })));
    expect(second).toEqual({ order: first.order, fills: [], duplicate: true });
    expect(await venue.account()).toEqual(before);
    expect(kv.sets).toBe(writes);
  });

  it('ignores different contents under a known id', async () => {
    const { venue } = await openHarness();
    await venue.submit(order({ side: 'BUY', qty: 1, clientOrderId: 'same' }), market);
    const other = await venue.submit(order({ side: 'SELL', qty: 5, clientOrderId: 'same' }), market);
    expect(other.duplicate).toBe(true);
    expect(other.order).toMatchObject({ side: 'BUY', qty: 1 });
    expect((await venue.account()).positions[0]?.qty).toBe(1);
  });

  it('returns a rejected order as rejected', async () => {
    const { venue } = await openHarness();
    const bad = order({ side: 'BUY', qty: 0.001 });
    await venue.submit(bad, market);
    const replay = await venue.submit(bad, market);
    expect(replay).toMatchObject({ duplicate: true, order: { status: 'rejected' } });
  });

  it('hands out copies: mutating a returned order changes nothing inside', async () => {
    const { venue } = await openHarness();
    const request = order({ side: 'BUY', qty: 1, type: 'limit', limitPrice: 90 });
    const { order: returned } = await venue.submit(request, market);
    returned.status = 'cancelled';
    expect((await venue.openOrders())[0]?.status).toBe('open');
  });
});

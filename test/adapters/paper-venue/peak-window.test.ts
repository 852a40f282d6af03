/**
 * The paper account's drawdown reference: the peak NAV over RISK_DRAWDOWN_WINDOW, kept in
 * `paper:state` with the account so a restart keeps it (window included); an account stored before
 * the window (no `peaks`) still loads, its peakNav then counting as just seen; the operator's reset
 * sets the peak to the NAV and is stored too; a malformed window is an error, never a silent reset.
 */
import { describe, expect, it } from 'vitest';
import { openPaperVenue, PAPER_STATE_KEY } from '../../../src/adapters/paper-venue/index.js';
import { resolvePaperVenueConfig } from '../../../src/adapters/paper-venue/config.js';
import { createMemoryKv } from '../../support/memory-kv.js';
import { INSTRUMENTS, openHarness, openStoreHarness, order, snapshot, view } from './fixtures.js';

const HOUR = 3_600_000;
const at = (mid: number) => view(snapshot({ bid: mid - 1, ask: mid + 1 }));

describe('paper venue: the drawdown reference over a window', () => {
  it('lets an old high go once the window has passed, and keeps the window across a restart (real store)', async () => {
    const h = await openStoreHarness({ drawdownWindowMs: 2 * HOUR });
    try {
      const start = h.clock.now();
      await h.venue.submit(order({ side: 'BUY', qty: 100 }), at(100));
      const high = await h.venue.account(at(150));
      await h.venue.submit(order({ side: 'SELL', qty: 100, reduceOnly: true }), at(110));
      h.clock.set(start + HOUR);
      const flat = await h.venue.account(at(110));
      expect(flat.positions).toEqual([]);
      expect(flat.peakNav).toBe(high.nav);
      expect(flat.peakNav).toBeGreaterThan(flat.nav);

      // A restart inside the window keeps the old high; once the window passes it is gone.
      const restarted = await h.reopen();
      expect((await restarted.account()).peakNav).toBe(high.nav);
      h.clock.set(start + 2 * HOUR + 60_000);
      const later = await restarted.account();
      expect(later.peakNav).toBe(later.nav);
      await expect((await h.reopen()).account()).resolves.toMatchObject({ peakNav: later.nav });
    } finally {
      await h.cleanup();
    }
  });

  it('an operator reset sets the peak to the NAV, and the reset survives a restart', async () => {
    const h = await openHarness();
    await h.venue.submit(order({ side: 'BUY', qty: 100 }), at(100));
    await h.venue.account(at(150));
    const low = await h.venue.account(at(90));
    const reset = await h.venue.resetDrawdownPeak();
    expect(reset).toEqual({ previousPeakNav: expect.any(Number), peakNav: low.nav, nav: low.nav });
    expect(reset.previousPeakNav).toBeGreaterThan(low.nav);
    expect((await h.venue.account()).peakNav).toBe(low.nav);
    await expect((await h.reopen()).account()).resolves.toMatchObject({ peakNav: low.nav });
  });

  it('reads an account stored before the window: its peakNav is the reference for one more window', async () => {
    const h = await openHarness({ drawdownWindowMs: HOUR });
    await h.venue.account(at(100));
    const stored = (await h.kv.get(PAPER_STATE_KEY)) as Record<string, unknown>;
    const { peaks: _peaks, ...old } = stored;
    await h.kv.set(PAPER_STATE_KEY, { ...old, peakNav: 120_000 });

    const venue = await h.reopen();
    const start = h.clock.now();
    expect((await venue.account(at(100))).peakNav).toBe(120_000);
    h.clock.set(start + HOUR + 60_000);
    expect((await venue.account(at(100))).peakNav).toBe(100_000);
  });

  it('refuses a malformed window in the stored account rather than forgetting the peak', async () => {
    const kv = createMemoryKv();
    const h = await openHarness();
    await h.venue.account(at(100));
    const stored = (await h.kv.get(PAPER_STATE_KEY)) as Record<string, unknown>;
    for (const peaks of [[[1, 'x']], [[1]], 'nope']) {
      await kv.set(PAPER_STATE_KEY, { ...stored, peaks });
      await expect(openPaperVenue({ kv, instruments: INSTRUMENTS, clock: h.clock })).rejects.toThrow(/unreadable/);
    }
  });

  it('refuses a window shorter than a second', () => {
    expect(() => resolvePaperVenueConfig({ drawdownWindowMs: 10 })).toThrow(/drawdownWindowMs/);
    expect(() => resolvePaperVenueConfig({ drawdownWindowMs: 1.5e6 + 0.5 })).toThrow(/drawdownWindowMs/);
  });
});

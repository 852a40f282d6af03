/**
 * Issue 21: /health's `venue` component, the live venue's position drift from the trading heartbeat,
 * on a real SQLite store with the clock injected. Drift makes the answer `degraded`, names each symbol
 * (what the fills explain, what is held) and says how it ends; none (or the paper venue, whose
 * heartbeat carries no drift) is `ok`; a stale heartbeat is `unknown`. Every answer fits the schema.
 * And the console's Health row says the same.
 */
import { Compile } from 'typebox/compile';
import { afterEach, describe, expect, it } from 'vitest';
import { venueRow } from '../../console/lib/venue-drift.js';
import { healthChecker, HealthSchema } from '../../src/api/health.js';
import { DRIFT_RESOLVE } from '../../src/api/venue-health.js';
import { HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import type { TradingHeartbeat } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const DEADLINE_MS = 5_000;
const valid = Compile(HealthSchema);

describe("/health's venue component", () => {
  let t: TestStore | null = null;
  afterEach(async () => {
    await t?.cleanup();
    t = null;
  });

  async function checkWith(drift: TradingHeartbeat['positionDrift'], now = T0 + 1_000) {
    t ??= await openTestStore('sqlite');
    const beat = { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], ts: T0 };
    await writeDocument(t.store.kv, HEARTBEAT_KEY, drift === undefined ? beat : { ...beat, positionDrift: drift });
    const answer = await healthChecker(t.store, { now: () => now }, DEADLINE_MS).check();
    expect(answer.statusCode).toBe(200);
    expect(valid.Errors(answer.body)).toEqual([]);
    return answer.body;
  }

  it('drift: degraded, each symbol named with what the fills explain and what is held, and how it ends', async () => {
    const body = await checkWith([{ symbol: 'BTCUSDT', expected: 0.02, actual: 0.52 }]);
    expect(body.components.venue).toEqual({
      status: 'drift',
      drift: [{ symbol: 'BTCUSDT', expected: 0.02, actual: 0.52 }],
      resolve: DRIFT_RESOLVE,
    });
    expect(body.status).toBe('degraded');
    expect(body.reason).toContain(
      "position drift: BTCUSDT holds 0.52, the system's fills explain 0.02; openings refused",
    );
    expect(venueRow(body.components.venue)).toEqual({
      status: 'drift',
      detail: `BTCUSDT holds 0.52, fills explain 0.02 — openings refused; ${DRIFT_RESOLVE}`,
    });
  });

  it('no drift, or a paper heartbeat without the field: ok; a stale heartbeat: unknown', async () => {
    const none = await checkWith([]);
    expect(none.components.venue).toEqual({ status: 'ok', drift: [] });
    expect(none.status).toBe('ok');
    const paper = await checkWith(undefined);
    expect(paper.components.venue).toEqual({ status: 'ok', drift: [] });
    const stale = await checkWith([{ symbol: 'BTCUSDT', expected: 0, actual: 1 }], T0 + 3_600_000);
    expect(stale.components.venue).toEqual({ status: 'unknown', drift: [] });
    expect(venueRow(stale.components.venue).status).toBe('unknown');
  });
});

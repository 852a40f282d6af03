/**
 * Issue 30, finding 2, on the API's side: /health judged the trading process's heartbeat by the
 * difference of two wall clocks (this process's now, the beat's `ts`), clamped at zero. After a
 * backward step of the API host's clock (an NTP step, a VM restore) a dead trader's last beat lies in
 * the future, so it read as 0 ms old — `ok` — for as long as the step. Now a beat that stands still is
 * also timed on this process's monotonic clock from when it was first seen: whatever the wall clocks
 * say, a beat unchanged for longer than its stale bound is `stale`. A real SQLite store; both of this
 * process's clocks injected.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { healthChecker } from '../../src/api/health.js';
import { HEARTBEAT_KEY, heartbeatStaleAfterMs } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const HOUR = 3_600_000;

describe("/health's trading heartbeat across a wall-clock step", () => {
  let t: TestStore | null = null;
  afterEach(async () => {
    await t?.cleanup();
    t = null;
  });

  async function rig() {
    t = await openTestStore('sqlite');
    const time = { wall: T0, mono: 0 };
    const checker = healthChecker(t.store, { now: () => time.wall, monotonic: () => time.mono }, 5_000);
    const beat = { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], ts: T0, intervalMs: 200, halt: null };
    const bound = heartbeatStaleAfterMs(beat);
    const status = async () => (await checker.check()).body.components.trading_process;
    return { time, beat, bound, status, write: (b: typeof beat) => writeDocument(t!.store.kv, HEARTBEAT_KEY, b) };
  }

  it('a beat that stopped is stale after its bound even when this clock stepped back an hour', async () => {
    const { time, beat, bound, status, write } = await rig();
    await write(beat);
    time.wall += 100;
    time.mono += 100;
    expect((await status()).status).toBe('ok');
    // The trader dies; this host's clock steps back an hour; time goes on.
    time.wall -= HOUR;
    time.mono += 2 * bound;
    time.wall += 2 * bound;
    const seen = await status();
    expect(seen.status).toBe('stale');
    expect(seen.heartbeat_age_ms).toBeGreaterThanOrEqual(2 * bound);
  });

  it('a beat that keeps moving stays ok across the step', async () => {
    const { time, beat, bound, status, write } = await rig();
    await write(beat);
    expect((await status()).status).toBe('ok');
    time.wall -= HOUR;
    // The trader (whose clock did not step) keeps beating: each beat a new one.
    for (let i = 1; i <= 5; i++) {
      time.mono += bound / 2;
      time.wall += bound / 2;
      await write({ ...beat, ts: T0 + i * (bound / 2) });
      expect((await status()).status).toBe('ok');
    }
  });
});

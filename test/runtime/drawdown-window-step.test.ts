/**
 * Issue 30, finding 2: "a forward step of 2 h ends a `reducing` risk state with
 * RISK_DRAWDOWN_WINDOW=1h and buys at once". The real trading system in-process (actor system, paper
 * venue, a real SQLite store) with an injected clock whose wall time jumps while its monotonic time
 * does not, as an NTP step or a VM restore moves it. (Not libfaketime on a `tcs trade`: since
 * finding 8, a process whose wall clock alone is stepped is refused by the store's audit clock check
 * and halts, which would hide what the window does; a real host step moves the store's clock too.)
 * The window was judged on wall time: the step aged every remembered peak by 2 h, the reference fell
 * to the current NAV, `reducing` ended and the always-long strategy bought. Now the window is judged
 * on the monotonic clock: only time that passed ends it.
 */
import { pino } from 'pino';
import { SimulatedClock } from 'xstate';
import { afterEach, describe, expect, it } from 'vitest';
import { createStdoutEventLines } from '../../src/adapters/event-lines/stdout-event-lines.js';
import { generateKey } from '../../src/domain/keys.js';
import { readTradingConfig } from '../../src/runtime/trading/trading-config.js';
import { createTradingSystem } from '../../src/runtime/trading/trading-system.js';
import type { TradingSystem } from '../../src/runtime/trading/trading-system.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';
import { PERMISSIVE_ENV, START } from '../support/trading.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const LIMIT = 0.0002;

describe('a wall-clock step while the risk engine is reducing', () => {
  let test: TestStore | undefined;
  let system: TradingSystem | undefined;
  afterEach(async () => {
    await system?.stop('test over');
    await test?.cleanup();
    system = test = undefined;
  });

  /**
   * The system on a clock whose wall reading is the simulated time plus `offset.ms` (its monotonic
   * reading is not), on a new store or on the one a previous system (stopped) used.
   */
  async function open(offset: { ms: number }, restart?: { at: number }) {
    test ??= await openTestStore('sqlite');
    const config = readTradingConfig({
      RISK_HMAC_SECRET: generateKey(),
      STORE_URL: test.url,
      ...PERMISSIVE_ENV,
      CONTROL_PLANE_TIMEOUT: '0',
      // Full-size market entries pay fee and spread: a 0.02 % limit is breached within a few cycles.
      ORDER_STYLE: 'market',
      RISK_FRACTION: '1',
      RISK_MAX_DRAWDOWN: String(LIMIT),
      RISK_DRAWDOWN_WINDOW: '1h',
    });
    const sim = new SimulatedClock();
    sim.set(restart?.at ?? START);
    const lines: Array<Record<string, unknown> & { event: string }> = [];
    system = await createTradingSystem({
      config,
      store: test.store,
      lines: createStdoutEventLines({ write: (line: string) => lines.push(JSON.parse(line)) }),
      clock: { now: () => sim.now() + offset.ms, monotonic: () => sim.now() },
      timers: sim,
      backgroundTimers: false,
      log: pino({ level: 'silent' }),
    });
    await system.settled();
    const s = system;
    return {
      lines,
      now: () => sim.now(),
      advance: async (ms: number) => {
        sim.increment(ms);
        await s.settled();
      },
      changes: () =>
        lines.filter((l) => l.event === 'risk_state_changed').map((l) => `${String(l.from)}→${String(l.to)}`),
      buys: () => lines.filter((l) => l.event === 'order_submitted' && l.side === 'BUY').length,
    };
  }

  it('a forward step of 2 h with RISK_DRAWDOWN_WINDOW=1h neither ends `reducing` nor buys', async () => {
    const offset = { ms: 0 };
    const t = await open(offset);
    for (let i = 0; i < 30 && !t.changes().includes('active→reducing'); i++) await t.advance(MINUTE);
    expect(t.changes()).toEqual(['active→reducing']);
    await t.advance(MINUTE); // the engine closes what it holds
    const buys = t.buys();

    offset.ms += 2 * HOUR; // the step: wall time only
    for (let i = 0; i < 5; i++) await t.advance(MINUTE);
    expect(t.changes()).toEqual(['active→reducing']);
    expect(t.buys()).toBe(buys);

    // Time that really passes still ends it: a whole window (plus its one-minute buckets) later.
    for (let i = 0; i < 70 && t.changes().length === 1; i++) await t.advance(MINUTE);
    expect(t.changes()).toEqual(['active→reducing', 'reducing→active']);
  });

  it('a `reducing` resumed by a restart after a forward step of 2 h does not end at once', async () => {
    const first = await open({ ms: 0 });
    for (let i = 0; i < 30 && !first.changes().includes('active→reducing'); i++) await first.advance(MINUTE);
    expect(first.changes()).toEqual(['active→reducing']);
    await first.advance(MINUTE);
    await system!.stop('restart');
    system = undefined;

    // Down for a minute, but the wall clock stepped 2 h forward meanwhile: the new process cannot
    // tell the step from time that passed, so it watches a whole window before the window ends it.
    const second = await open({ ms: 2 * HOUR }, { at: first.now() + MINUTE });
    for (let i = 0; i < 5; i++) await second.advance(MINUTE);
    expect(second.changes()).toEqual([]);
    expect(second.buys()).toBe(0);
    for (let i = 0; i < 70 && second.changes().length === 0; i++) await second.advance(MINUTE);
    expect(second.changes()).toEqual(['reducing→active']);
  });
});

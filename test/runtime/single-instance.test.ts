/** One trading process per store: a live predecessor refuses the start; a dead, stale or stopped one does not. */
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import type { TradingHeartbeat } from '../../src/domain/runtime-documents.js';
import { AnotherTradingProcessError, assertNoOtherTradingProcess } from '../../src/runtime/trading/single-instance.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

const NOW = 1_800_000_000_000;
const clock = { now: () => NOW };
const beat = (over: Partial<TradingHeartbeat>): TradingHeartbeat => ({
  pid: process.ppid,
  ts: NOW - 1000,
  state: 'running',
  epoch: 0,
  lastCycle: 3,
  lastCycleAt: NOW - 2000,
  mode: 'paper',
  host: hostname(),
  stopped: false,
  ...over,
});

describe('single trading process per store', () => {
  let t: TestStore;
  afterEach(async () => t.cleanup());

  it('refuses while a live process on this host (or any other host) beats fresh', async () => {
    t = await openTestStore('sqlite');
    await t.store.kv.set(HEARTBEAT_KEY, beat({}));
    await expect(assertNoOtherTradingProcess(t.store.kv, clock)).rejects.toThrow(AnotherTradingProcessError);
    await t.store.kv.set(HEARTBEAT_KEY, beat({ host: 'elsewhere', pid: 999_999 }));
    await expect(assertNoOtherTradingProcess(t.store.kv, clock)).rejects.toThrow(/pid 999999 on elsewhere/);
  });

  it.each<[string, Partial<TradingHeartbeat> | null]>([
    ['no heartbeat at all', null],
    ['a predecessor that died on this host', { pid: 2 ** 22 + 12345 }],
    ['a stale heartbeat', { ts: NOW - 60_000 }],
    ['a predecessor that stopped cleanly', { stopped: true }],
    ['its own heartbeat', { pid: process.pid }],
  ])('starts over %s', async (_label, over) => {
    t = await openTestStore('sqlite');
    if (over) await t.store.kv.set(HEARTBEAT_KEY, beat(over));
    await expect(assertNoOtherTradingProcess(t.store.kv, clock)).resolves.toBeUndefined();
  });
});

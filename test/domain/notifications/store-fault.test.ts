/**
 * The notifier's store-fault debounce (src/domain/notifications/store-fault.ts): a failure told only
 * once it has lasted the debounce, told once, its recovery told once, both named by the fault's start.
 */
import { expect, it } from 'vitest';
import { observeStore, STORE_WATCH_START } from '../../../src/domain/notifications/store-fault.js';
import type { StoreWatch } from '../../../src/domain/notifications/store-fault.js';

const DEBOUNCE = 10_000;
const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 3, 0, s)).toISOString();

function run(rounds: Array<[number, boolean]>) {
  let watch: StoreWatch = STORE_WATCH_START;
  const notices = [];
  for (const [s, ok] of rounds) {
    const step = observeStore(
      watch,
      ok ? { ok } : { ok, cause: 'OOM command not allowed' },
      s * 1000,
      at(s),
      DEBOUNCE,
      7,
    );
    watch = step.watch;
    if (step.notice) notices.push(step.notice);
  }
  return notices;
}

it('a failure shorter than the debounce tells nobody', () => {
  expect(
    run([
      [0, true],
      [1, false],
      [5, false],
      [9, false],
      [10, true],
      [11, false],
      [12, true],
    ]),
  ).toEqual([]);
});

it('a failure that lasts the debounce is told once, and its end once, both named by its start', () => {
  const notices = run([
    [0, true],
    [1, false],
    [6, false],
    [11, false],
    [20, false],
    [40, false],
    [41, true],
    [42, true],
  ]);
  expect(notices.map((n) => n.kind)).toEqual(['store_fault', 'store_recovered']);
  expect(notices[0]).toMatchObject({
    id: `store:${at(1)}:store_fault`,
    at: at(11),
    seq: 7,
    data: { fault_since: at(1), cause: 'OOM command not allowed' },
  });
  expect(notices[0]!.text).toContain('OOM command not allowed');
  expect(notices[1]).toMatchObject({
    id: `store:${at(1)}:store_recovered`,
    data: { fault_since: at(1), lasted_s: 40 },
  });
});

it('the debounce is measured on the monotonic reading, not the wall time shown', () => {
  let watch: StoreWatch = STORE_WATCH_START;
  // The wall clock jumps an hour ahead between two failing rounds one second apart: still no notice.
  watch = observeStore(watch, { ok: false, cause: 'x' }, 0, at(0), DEBOUNCE, 0).watch;
  const step = observeStore(watch, { ok: false, cause: 'x' }, 1000, '2026-11-28T04:00:01.000Z', DEBOUNCE, 0);
  expect(step.notice).toBeNull();
});

it('two faults get two ids', () => {
  const notices = run([
    [0, false],
    [10, false],
    [11, true],
    [20, false],
    [30, false],
    [31, true],
  ]);
  expect(new Set(notices.map((n) => n.id)).size).toBe(4);
});

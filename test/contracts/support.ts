/**
 * Shared plumbing for the store contract suites: opening fresh backends per test and closing them
 * afterwards, reading the whole audit trail, and a seeded PRNG so randomised tests are reproducible.
 */
import { afterEach } from 'vitest';
import type { AuditEvent, EventQuery, EventStore } from '../../src/ports/event-store.js';
import type { Store } from '../../src/ports/store.js';
import { seededRandom } from '../../src/domain/seeded-random.js';

/** Opens a store: `open` gives a fresh, empty backend; `openSecond` another connection to the latest one. */
export type StoreFactory = () => Promise<Store>;

export interface StoreHarness {
  /** A fresh, empty backend (one connection). */
  one(): Promise<Store>;
  /** A fresh, empty backend and a second connection to it (standing in for the other process). */
  two(): Promise<[Store, Store]>;
}

/**
 * Registers an afterEach that closes every store a test opened, so a failing assertion never leaks
 * connections or timers into the next test.
 */
export function storeHarness(open: StoreFactory, openSecond: StoreFactory): StoreHarness {
  const opened: Store[] = [];
  afterEach(async () => {
    // Second connections first: they were opened last and may depend on the first being alive.
    const toClose = opened.splice(0).reverse();
    for (const store of toClose) await store.close();
  });
  const one = async (): Promise<Store> => {
    const store = await open();
    opened.push(store);
    return store;
  };
  return {
    one,
    async two() {
      const first = await one();
      const second = await openSecond();
      opened.push(second);
      return [first, second];
    },
  };
}

/** Every entry matching `filter`, newest first, paging with `before` so it works past the 1000 limit. */
export async function readAll(
  events: EventStore,
  filter: Omit<EventQuery, 'limit' | 'before'> = {},
): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  let before: number | undefined;
  for (;;) {
    const page = await events.query({ ...filter, limit: 1000, ...(before === undefined ? {} : { before }) });
    out.push(...page);
    const last = page[page.length - 1];
    if (page.length < 1000 || last === undefined) return out;
    // An adapter treating `before` as inclusive would page forever; fail instead of hanging.
    if (before !== undefined && last.seq >= before) throw new Error(`query before=${before} returned seq ${last.seq}`);
    before = last.seq;
  }
}

/** A fixed seed makes a failing random run repeatable (the sweep's generator, src/domain/seeded-random.ts). */
export { seededRandom };

/** ISO time `seconds` after a fixed base, so test timestamps sort and compare predictably. */
export function isoAt(seconds: number): string {
  return new Date(Date.UTC(2024, 0, 1) + seconds * 1000).toISOString();
}

/**
 * The last recorded cycle, from which a restarted trading process numbers its cycles: the newest
 * decision entry or the last heartbeat, whichever is further; nothing usable counts as none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { lastRecordedCycle } from '../../src/application/cycle-numbers.js';
import { HEARTBEAT_KEY } from '../../src/domain/runtime-documents.js';
import { writeDocument } from '../../src/ports/documents.js';
import { SAMPLE_DOCUMENTS } from '../support/documents.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

let testStore: TestStore | null = null;
afterEach(async () => {
  await testStore?.cleanup();
  testStore = null;
});

describe('lastRecordedCycle', () => {
  it('is 0 on an empty store and the larger of the newest decision and the heartbeat otherwise', async () => {
    testStore = await openTestStore('sqlite');
    const { store } = testStore;
    expect(await lastRecordedCycle(store)).toBe(0);
    const decision = (cycle: unknown) =>
      store.events.append({ kind: 'decision', at: new Date().toISOString(), body: { cycle } });
    await decision(6);
    await decision(7);
    expect(await lastRecordedCycle(store)).toBe(7);
    // A process that died after its heartbeat but before the decision was written.
    await writeDocument(store.kv, HEARTBEAT_KEY, { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], lastCycle: 9 });
    expect(await lastRecordedCycle(store)).toBe(9);
    // A heartbeat that is not one (here a partial one) says nothing about the last cycle.
    await store.kv.set(HEARTBEAT_KEY, { lastCycle: 12 });
    expect(await lastRecordedCycle(store)).toBe(7);
    await store.kv.set(HEARTBEAT_KEY, { ...SAMPLE_DOCUMENTS[HEARTBEAT_KEY], lastCycle: 'nine' });
    await decision(null);
    expect(await lastRecordedCycle(store)).toBe(0);
  });
});

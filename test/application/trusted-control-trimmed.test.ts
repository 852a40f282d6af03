/**
 * The audit head check on a trimmed hot store (issue 35): an entry the process remembers that was
 * archived and trimmed since is judged by the floor or the archive, so a trimmed store is not taken
 * for a rolled-back one, while an archive that lost that entry (truncated) is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { trustedControl } from '../../src/application/trusted-control.js';
import type { StoreMemory } from '../../src/domain/store-identity.js';
import type { AuditEvent } from '../../src/ports/event-store.js';
import { openTestStore } from '../support/stores.js';
import type { TestStore } from '../support/stores.js';

describe('trusted control: the audit head of a trimmed store', () => {
  let t: TestStore | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  async function trimmedPast(seen: number, floor: number) {
    t = await openTestStore('sqlite');
    const { store } = t;
    const appended: AuditEvent[] = [];
    for (let i = 1; i <= 10; i++)
      appended.push(
        await store.events.append({
          kind: 'note',
          at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          body: { i },
        }),
      );
    const record = await store.control.read();
    const remembered = appended[seen - 1]!;
    const memory: StoreMemory = {
      storeId: record.store_id,
      epoch: record.epoch,
      killedAt: null,
      head: { seq: remembered.seq, hash: remembered.hash },
    };
    await store.events.trimThrough({ seq: floor, hash: appended[floor - 1]!.hash });
    return { store, memory, appended };
  }

  it('the remembered entry is the floor itself: on the chain', async () => {
    const { store, memory } = await trimmedPast(4, 4);
    const trusted = trustedControl(store.control, { memory, events: store.events });
    await expect(trusted.checkHead()).resolves.toBeUndefined();
    expect(trusted.memory().head?.seq).toBe(10);
  });

  it('the remembered entry is below the floor: the archive vouches for it', async () => {
    const { store, memory, appended } = await trimmedPast(3, 6);
    const archivedHash = async (seq: number) => appended[seq - 1]?.hash ?? null;
    const trusted = trustedControl(store.control, { memory, events: store.events, archivedHash });
    await expect(trusted.checkHead()).resolves.toBeUndefined();
  });

  it('an archive that no longer holds it (truncated) is a rollback', async () => {
    const { store, memory } = await trimmedPast(3, 6);
    const trusted = trustedControl(store.control, { memory, events: store.events, archivedHash: async () => null });
    await expect(trusted.checkHead()).rejects.toMatchObject({ kind: 'rolled_back' });
  });
});

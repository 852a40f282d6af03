/**
 * The control store as a process that remembers its store sees it: every record read is judged
 * against the process's memory (src/domain/store-identity.ts) before anyone acts on it. A record of
 * another identity, an older epoch, or one that has left a remembered kill without a kill reset raises
 * StoreFaultError instead of being returned, so no caller — the API's routes, the trading process's
 * cycle, order gate, heartbeat — can mistake a replaced, emptied or rolled-back store for the one it
 * knew. A compare-and-set that lost returns the record it lost to, judged the same way, so a retry
 * never decides on a record nobody trusted. A change notification only starts such a read. The
 * memory moves only forward, and only after `remember` (the trading process's latch file) has
 * stored the move.
 */
import type { ControlRecord } from '../domain/control.js';
import { GENESIS_HASH } from '../domain/hash-chain.js';
import { judgeHead, judgeRecord } from '../domain/store-identity.js';
import type { AuditHead, StoreMemory, StoreVerdict } from '../domain/store-identity.js';
import type { ControlStore } from '../ports/control-store.js';
import type { EventStore } from '../ports/event-store.js';
import { StoreFaultError } from '../ports/store-errors.js';

export interface TrustedControlOptions {
  memory: StoreMemory;
  /** Called (and awaited) before the memory moves, with the record that moves it. */
  remember?(memory: StoreMemory, record: ControlRecord): Promise<void>;
  /** The epoch written by the newest `kill_reset` audit entry (null when none): proof that a kill was ended. */
  lastResetEpoch?(): Promise<number | null>;
  /** Told about a record that was not trusted (a notification that will not be delivered). */
  distrusted?(err: StoreFaultError): void;
  /** The store's audit trail, for checkHead(); without it the trail is not judged. */
  events?: EventStore;
  /**
   * The archive's hash of entry `seq` (null: it does not hold it), for a remembered entry that was
   * archived and trimmed from the store since (issue 35). Without it such an entry cannot be vouched
   * for and the trail is judged gone back, as it is when the archive lost it (truncated).
   */
  archivedHash?(seq: number): Promise<string | null>;
}

export interface TrustedControl extends ControlStore {
  /** What this process remembers now. */
  memory(): StoreMemory;
  /**
   * Judges the store's audit trail head against the one remembered (src/domain/store-identity.ts
   * judgeHead) and moves the memory forward. A trail gone back is StoreFaultError 'rolled_back', and
   * stays so for every later read and check until the memory moves to another (adopted) identity.
   */
  checkHead(): Promise<void>;
}

export function trustedControl(inner: ControlStore, options: TrustedControlOptions): TrustedControl {
  let memory = options.memory;
  // Moves are stored one after another, so a slow save can never land after a newer one.
  let saving: Promise<unknown> = Promise.resolve();

  const verdictFor = async (record: ControlRecord): Promise<StoreVerdict> => {
    const verdict = judgeRecord(memory, record);
    if (verdict.ok || verdict.kind !== 'needs_reset_proof') return verdict;
    return judgeRecord(memory, record, (await options.lastResetEpoch?.()) ?? null);
  };

  const judge = async (record: ControlRecord, again?: () => Promise<ControlRecord>): Promise<ControlRecord> => {
    let verdict = await verdictFor(record);
    // A reply that left before a newer notification moved the memory looks rolled back: read once more.
    if (!verdict.ok && verdict.kind === 'rolled_back' && again) {
      record = await again();
      verdict = await verdictFor(record);
    }
    if (!verdict.ok) {
      const kind = verdict.kind === 'needs_reset_proof' ? 'rolled_back' : verdict.kind;
      throw new StoreFaultError(kind, 'message' in verdict ? verdict.message : 'a remembered kill was left');
    }
    const next = verdict.memory;
    if (next.storeId === memory.storeId && next.epoch === memory.epoch && next.killedAt === memory.killedAt)
      return record;
    const save = saving.then(() => options.remember?.(next, record));
    saving = save.catch(() => undefined); // a failed save fails this read only; the next one retries it
    await save;
    if (next.storeId !== memory.storeId) memory = next;
    // The same store: forward only, and keeping a head a concurrent check moved meanwhile.
    else if (next.epoch >= memory.epoch) memory = { ...next, ...furthestHead(next.head, memory.head) };
    return record;
  };

  let lastRecord: ControlRecord | null = null;
  // A trail found gone back: sticky for the identity it was found on (restores do not undo themselves).
  let headFault: { storeId: string | null; err: StoreFaultError } | null = null;
  const stillFaulted = () => {
    if (headFault !== null && headFault.storeId === memory.storeId) throw headFault.err;
  };

  // Judged first, then the fault: an adoption moves the memory to the new identity, which ends it.
  const read = async () => {
    const record = await judge(await inner.read(), () => inner.read());
    stillFaulted();
    lastRecord = record;
    return record;
  };

  /** One check: everything is judged against the memory as it was when the check began. */
  const checkHeadOnce = async () => {
    const events = options.events;
    if (!events) return;
    stillFaulted();
    const record = lastRecord ?? (await read());
    const base = memory;
    const [newest] = await events.query({ limit: 1 });
    const head: AuditHead = newest ? { seq: newest.seq, hash: newest.hash } : { seq: 0, hash: GENESIS_HASH };
    const seen = base.head ?? null;
    let hashAtSeen: string | null | undefined;
    if (seen !== null && seen.seq > 0 && head.seq > seen.seq) {
      const [entry] = await events.query({ limit: 1, before: seen.seq + 1 });
      hashAtSeen = entry?.seq === seen.seq ? entry.hash : await trimmedHash(events, seen.seq, options.archivedHash);
    }
    const verdict = judgeHead(base, head, hashAtSeen);
    if (!verdict.ok) {
      headFault = { storeId: base.storeId, err: new StoreFaultError('rolled_back', verdict.message) };
      throw headFault.err;
    }
    if (verdict.memory === base) return;
    const moved = verdict.memory.head ?? null;
    // Saved with the memory as it is by then (a read may have moved its epoch, or seen a kill).
    const save = saving.then(() => {
      if (memory.storeId !== base.storeId) return;
      return options.remember?.({ ...memory, ...furthestHead(moved, memory.head) }, lastRecord ?? record);
    });
    saving = save.catch(() => undefined);
    await save;
    // Only forward, and only on the identity it was judged for.
    if (memory.storeId === base.storeId) memory = { ...memory, ...furthestHead(moved, memory.head) };
  };

  // Checks never overlap (an API heartbeat slower than its interval would start another): a check
  // judged against a memory that a newer check moved meanwhile looked like a trail gone back.
  let checking: Promise<void> | null = null;
  const checkHead = () => {
    checking ??= checkHeadOnce().finally(() => {
      checking = null;
    });
    return checking;
  };

  return {
    memory: () => memory,
    read,
    checkHead,
    initialise: (at) => inner.initialise(at),
    adopt: (record, audit) => inner.adopt(record, audit),
    async compareAndSet(change) {
      const result = await inner.compareAndSet(change);
      if (result.written) return result;
      return { written: false, current: await judge(result.current, () => inner.read()) };
    },
    subscribe: (listener) => inner.subscribe(hintToRead(read, listener, options.distrusted)),
  };
}

/** The further of two heads (by seq), as the `head` field of a memory; nothing when neither is known. */
function furthestHead(a: AuditHead | null | undefined, b: AuditHead | null | undefined): { head?: AuditHead } {
  const head = !a ? b : !b ? a : a.seq >= b.seq ? a : b;
  return head ? { head } : {};
}

/**
 * A notification is a hint that the record changed, never a record to judge: it travels apart from
 * the replies to reads (Redis: another connection), so it can arrive after a read that already saw
 * a newer epoch, and judged as it came it looked like a store gone back in time. Each hint starts a
 * read instead (one at a time; hints during a read ask for one more), and the listener hears what
 * that read returned and was judged. A read that fails for any reason other than a fault is left to
 * the next hint or re-read (the trading process's safety tick and cycles re-read anyway).
 */
function hintToRead(
  read: () => Promise<ControlRecord>,
  listener: (record: ControlRecord) => void,
  distrusted: ((err: StoreFaultError) => void) | undefined,
): () => void {
  let reading = false;
  let again = false;
  const readUntilQuiet = async () => {
    reading = true;
    try {
      do {
        again = false;
        listener(await read());
      } while (again);
    } catch (err) {
      if (err instanceof StoreFaultError) distrusted?.(err);
    } finally {
      reading = false;
    }
  };
  return () => {
    if (reading) again = true;
    else void readUntilQuiet();
  };
}

/**
 * The hash of entry `seq` when the hot store no longer has it: the floor's own when it is the floor,
 * the archive's when it lies below it; null when neither holds it (a trail gone back).
 */
async function trimmedHash(
  events: EventStore,
  seq: number,
  archivedHash: ((seq: number) => Promise<string | null>) | undefined,
): Promise<string | null> {
  const floor = await events.floor();
  if (seq > floor.seq) return null;
  if (seq === floor.seq) return floor.hash;
  return (await archivedHash?.(seq)) ?? null;
}

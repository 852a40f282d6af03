/**
 * `tcs audit verify`: re-hashes the event store's chain and reports the first bad entry. Where a
 * trading latch is (TRADING_LATCH_PATH), the trail is also held against the head the trading process
 * last saw on this store (its entry for STORE_URL): a chain that is intact but ends before it, or holds another entry there,
 * lost its tail (a restored backup) and is reported as such. Every completed command must have its
 * `command_executed` entry (they are written in one step): those without one are named (those
 * completed before the store's window have theirs in the archive).
 */
import { openStore } from '../adapters/open-store.js';
import { latchFile } from '../adapters/latch/latch-file.js';
import { storeKey } from '../adapters/latch/store-key.js';
import type { AuditArchive } from '../ports/audit-archive.js';
import type { TradingLatch } from '../ports/latch.js';
import type { Store } from '../ports/store.js';
import { readStoreUrl } from './config.js';
import { readSafetyConfig } from './trading/safety-config.js';
import { archiveProblem, openArchive } from './audit-archive.js';

/** `full`: the archive re-hashed from its first entry, not only what came after the last verification. */
export async function verifyAuditTrail(
  env: NodeJS.ProcessEnv,
  { full = false }: { full?: boolean } = {},
): Promise<number> {
  const store = await openStore(readStoreUrl(env));
  let opened: AuditArchive | null = null;
  try {
    // The latch first, the trail's snapshot second: a trading process appending meanwhile moves its
    // latch only to entries already in the trail, so a trail that merely grew is never taken for one
    // that lost its tail (read after the snapshot, the latch was ahead of it on every busy store).
    const latch = await rememberedByLatch(env);
    // Done commands before the entries, for the same reason: a command completed meanwhile has its
    // entry in the trail read after (completion and entry are one step), never the other way round.
    const done = await store.commands.completedIds();
    const archive = (opened = openArchive(env));
    const archived = await archiveProblem(store.events, archive, { full });
    if (archived !== null) {
      console.error(`audit trail BROKEN: ${archived}`);
      return 1;
    }
    const result = await store.events.verify();
    if (!result.ok) {
      console.error(
        `audit trail BROKEN at entry ${result.firstBad.seq}: ${result.firstBad.reason} (${result.count} entries)`,
      );
      return 1;
    }
    const [newest] = await store.events.query({ limit: 1 });
    const behind = latch === null ? null : await behindLatch(store, archive, newest?.seq ?? 0, latch);
    if (behind !== null) {
      console.error(`audit trail intact but INCOMPLETE: ${result.count} entries; ${behind}`);
      return 1;
    }
    const unrecorded = await withoutEntry(store, done);
    if (unrecorded.length > 0) {
      console.error(
        `audit trail intact but ${unrecorded.length} completed commands have no command_executed entry: ${unrecorded.join(', ')}`,
      );
      return 1;
    }
    console.log(`audit trail intact: ${result.count} entries, head ${result.head}`);
    return 0;
  } finally {
    await opened?.close();
    await store.close();
  }
}

/** Entries read per page while collecting the recorded commands (the query's maximum). */
const PAGE = 1000;

/**
 * The ids among `done` that no `command_executed` entry names. A command and its entry are one
 * store step, and the store trims only entries the archive holds (verified above): so a command
 * completed before the first entry of the store's window has its entry in the archive, and only
 * the commands completed since are looked for in the window.
 */
async function withoutEntry(store: Store, done: readonly string[]): Promise<string[]> {
  if (done.length === 0) return [];
  const recorded = new Set<string>();
  for (let before: number | undefined; ;) {
    const page = await store.events.query({ kind: 'command_executed', limit: PAGE, ...(before ? { before } : {}) });
    for (const entry of page) recorded.add(String(entry.body.command_id));
    const last = page.at(-1);
    if (page.length < PAGE || last === undefined) break;
    before = last.seq;
  }
  const missing = done.filter((id) => !recorded.has(id));
  const floor = await store.events.floor();
  if (missing.length === 0 || floor.seq === 0) return missing;
  const [first] = await store.events.query({ limit: 1, before: floor.seq + 2 });
  if (first === undefined) return missing;
  const windowStart = Date.parse(first.at);
  const out: string[] = [];
  for (const id of missing) {
    const completedAt = (await store.commands.get(id))?.completed_at;
    if (completedAt === null || completedAt === undefined || Date.parse(completedAt) >= windowStart) out.push(id);
  }
  return out;
}

/** The trading latch's entry for this store, with where it lives; null when it has none or is unreadable. */
async function rememberedByLatch(env: NodeJS.ProcessEnv): Promise<{ path: string; latch: TradingLatch } | null> {
  const path = readSafetyConfig(env).latchPath;
  try {
    const latch = await latchFile(path, storeKey(readStoreUrl(env))).load();
    return latch === null ? null : { path, latch };
  } catch {
    return null; // an unreadable latch is the trading process's to report
  }
}

/** Why the trail falls short of what the trading latch here remembers, or null when it does not. */
async function behindLatch(
  store: Store,
  archive: AuditArchive,
  count: number,
  { path, latch }: { path: string; latch: TradingLatch },
): Promise<string | null> {
  if (latch.auditSeq === undefined || latch.auditHash === undefined) return null;
  // An emptied store (no record) is compared too: losing everything is the worst of losses.
  const record = await store.control.read().catch(() => null);
  if (record !== null && record.store_id !== latch.storeId) return null; // another (an adopted) store
  const remembered = `entry ${latch.auditSeq} (hash ${latch.auditHash.slice(0, 12)}…)`;
  if (count < latch.auditSeq)
    return `the trading latch ${path} remembers ${remembered} on this store: entries were lost (a restored backup?)`;
  // An entry archived and trimmed since is looked up in the archive.
  const floor = await store.events.floor();
  const [entry] =
    latch.auditSeq <= floor.seq
      ? [{ hash: await archive.hashAt(latch.auditSeq) }]
      : await store.events.query({ limit: 1, before: latch.auditSeq + 1 });
  if (latch.auditSeq > 0 && entry?.hash !== latch.auditHash)
    return `the trading latch ${path} remembers another ${remembered} on this store: it was restored and written on`;
  return null;
}

/**
 * The audit trail on Redis: one hash per entry (`events:entry:<seq>`), a head hash {seq, hash}, and
 * sorted-set indexes (score = seq) by kind, by symbol and by kind + symbol, so filtered pages are
 * read newest first straight from an index rather than by scanning the log. Appends hash in
 * TypeScript and commit through the compare-and-set script in lua-sources.ts.
 */
import type { Redis } from 'ioredis';
import { checkFloor, NO_FLOOR } from '../../domain/chain-walk.js';
import type { ChainFloor } from '../../domain/chain-walk.js';
import type { AuditEvent, ChainVerification, EventQuery, EventStore, NewAuditEvent } from '../../ports/event-store.js';
import type { AuditChain } from './audit-chain.js';
import { decodeEntry, parseChainWriteReply, readEntries } from './audit-chain.js';
import { retryCas } from './cas-retry.js';
import type { RedisKeys } from './keys.js';
import { appendEventScript, trimEventsScript } from './lua-sources.js';
import { verifyChain } from './verify-chain.js';

/** Most entries a query reads from one index per round trip when a time filter may discard some. */
const MAX_QUERY_BATCH = 1000;

/** Entries deleted per script call while trimming: the server is held for about a millisecond. */
const TRIM_CHUNK = 500;

export class RedisEventStore implements EventStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly chain: AuditChain,
  ) {}

  append(input: NewAuditEvent): Promise<AuditEvent> {
    return this.chain.mutex.run(() =>
      retryCas('audit append', async () => {
        const prepared = await this.chain.prepare(await this.chain.head(), input);
        const outcome = parseChainWriteReply(await appendEventScript.run(this.redis, prepared.keys, prepared.args));
        if (outcome.ok) {
          const { seq, hash, at } = prepared.event;
          this.chain.remember({ seq, hash, at });
          return prepared.event;
        }
        if ('head' in outcome) this.chain.remember(outcome.head);
        else this.chain.forget();
        return undefined;
      }),
    );
  }

  async query(query: EventQuery): Promise<AuditEvent[]> {
    const { limit } = query;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      throw new RangeError(`limit must be an integer from 1 to 1000, got ${limit}`);
    const timeFiltered = query.since !== undefined || query.until !== undefined;
    const batch = timeFiltered ? Math.min(MAX_QUERY_BATCH, Math.max(limit * 2, 200)) : limit;
    const index = this.indexFor(query);
    // Exclusive upper bound on seq; walks down batch by batch until the page is full.
    let upper = query.before ?? Number.POSITIVE_INFINITY;
    if (index === null) upper = Math.min(upper, (await this.headSeq()) + 1);
    // Below the floor everything was trimmed: walking down there would read nothing, page after page.
    const lowest = index === null ? (await this.floor()).seq + 1 : 1;
    const out: AuditEvent[] = [];
    while (out.length < limit && upper > lowest) {
      const seqs = index === null ? descending(upper - 1, batch, lowest) : await this.indexPage(index, upper, batch);
      if (seqs.length === 0) break;
      for (const event of await this.fetch(seqs)) {
        if (event === null || !matches(event, query)) continue;
        out.push(event);
        if (out.length === limit) break;
      }
      upper = seqs[seqs.length - 1] ?? 0;
    }
    return out;
  }

  verify(): Promise<ChainVerification> {
    return verifyChain(this.redis, this.keys);
  }

  /** The entries held: the head's seq less the floor's (seqs have no gaps; trimmed ones are in the archive). */
  async count(): Promise<number> {
    const [head, floor] = await Promise.all([this.headSeq(), this.floor()]);
    return head - floor.seq;
  }

  async floor(): Promise<ChainFloor> {
    const [seq, hash] = await this.redis.hmget(this.keys.eventFloor, 'seq', 'hash');
    return seq && hash ? { seq: Number(seq), hash } : NO_FLOOR;
  }

  async trimThrough(through: ChainFloor): Promise<number> {
    checkFloor(through);
    let deleted = 0;
    for (let floor = (await this.floor()).seq; floor < through.seq;) {
      const upTo = Math.min(floor + TRIM_CHUNK, through.seq);
      const seqs: number[] = [];
      for (let seq = floor + 1; seq <= upTo; seq++) seqs.push(seq);
      const entries = await this.fetch(seqs);
      const last = entries.at(-1);
      if (!last) throw new Error(`audit trim: entry ${upTo} is missing from the hot store`);
      if (upTo === through.seq && last.hash !== through.hash)
        throw new Error(`audit trim: entry ${through.seq} is not the one archived (another hash)`);
      const indexKeys: string[] = [];
      const members: string[] = [];
      for (const entry of entries) {
        if (entry === null) continue;
        for (const key of this.keys.eventIndexes(entry.kind, entry.symbol)) {
          indexKeys.push(key);
          members.push(String(entry.seq));
        }
      }
      const keys = [
        this.keys.eventFloor,
        this.keys.eventHead,
        ...seqs.map((s) => this.keys.eventEntry(s)),
        ...indexKeys,
      ];
      const reply = Number(await trimEventsScript.run(this.redis, keys, [upTo, last.hash, seqs.length, ...members]));
      if (reply === -1) throw new Error(`audit trim: entry ${upTo} is not older than the head`);
      if (reply === -2) throw new Error(`audit trim: entry ${upTo} changed while it was trimmed`);
      deleted += reply;
      floor = (await this.floor()).seq; // another trimmer may have moved it further meanwhile
    }
    return deleted;
  }

  private async headSeq(): Promise<number> {
    const seq = await this.redis.hget(this.keys.eventHead, 'seq');
    return seq ? Number(seq) : 0;
  }

  private indexFor(query: EventQuery): string | null {
    if (query.kind !== undefined && query.symbol !== undefined)
      return this.keys.eventsByKindSymbol(query.kind, query.symbol);
    if (query.kind !== undefined) return this.keys.eventsByKind(query.kind);
    if (query.symbol !== undefined) return this.keys.eventsBySymbol(query.symbol);
    return null;
  }

  private async indexPage(index: string, upper: number, batch: number): Promise<number[]> {
    const max = Number.isFinite(upper) ? `(${upper}` : '+inf';
    const members = await this.redis.zrevrangebyscore(index, max, '-inf', 'LIMIT', 0, batch);
    return members.map(Number);
  }

  private async fetch(seqs: readonly number[]): Promise<(AuditEvent | null)[]> {
    return (await readEntries(this.redis, this.keys, seqs)).map(decodeEntry);
  }
}

/** `count` seqs from `top` downwards, stopping at `lowest`. */
function descending(top: number, count: number, lowest: number): number[] {
  const seqs: number[] = [];
  for (let seq = top; seq >= lowest && seqs.length < count; seq--) seqs.push(seq);
  return seqs;
}

function matches(event: AuditEvent, query: EventQuery): boolean {
  if (query.kind !== undefined && event.kind !== query.kind) return false;
  if (query.symbol !== undefined && event.symbol !== query.symbol) return false;
  if (query.since !== undefined && event.at < query.since) return false;
  if (query.until !== undefined && event.at >= query.until) return false;
  return true;
}

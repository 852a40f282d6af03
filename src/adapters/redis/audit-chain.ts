/**
 * The audit chain as the Redis scripts see it: the head {seq, hash, at}, how a new entry is hashed
 * (sha256 in TypeScript, since Redis Lua has none) and turned into script keys and arguments, and
 * how a stored entry is decoded. Shared by the event store and the control store, which both extend
 * the same chain, and by one mutex so writers in this process take turns.
 */
import type { Redis } from 'ioredis';
import { canonicalJson } from '../../domain/canonical-json.js';
import type { ChainHead } from '../../domain/chain-walk.js';
import { clockSkew, restampedWith } from '../../domain/clock-skew.js';
import { chainedAt, chainHash, GENESIS_HASH } from '../../domain/hash-chain.js';
import { systemClock } from '../../ports/clock.js';
import type { Clock } from '../../ports/clock.js';
import type { AuditEvent, NewAuditEvent } from '../../ports/event-store.js';
import { ClockSkewError } from '../../ports/store-errors.js';
import { Mutex } from './cas-retry.js';
import type { RedisKeys } from './keys.js';
import type { LuaArg } from './lua-script.js';

/** An entry hashed against a head, ready for a script that calls `append_entry`. */
export interface PreparedEntry {
  event: AuditEvent;
  /** head, entry, indexes… */
  keys: string[];
  /** expected head seq and hash, then the entry's fields, then the writer's clock (epoch ms). */
  args: LuaArg[];
}

/** What a chain-extending script answered. */
export type ChainWriteOutcome = { ok: true } | { ok: false; head: ChainHead } | { ok: false; epochMoved: true };

/** The head as stored; `at` is null for the empty chain and for heads written before it was kept. */
export function parseHead(
  seq: string | null | undefined,
  hash: string | null | undefined,
  at: string | null | undefined,
): ChainHead {
  return { seq: seq ? Number(seq) : 0, hash: hash ?? GENESIS_HASH, at: at ? at : null };
}

/** Throws ClockSkewError when the script refused the writer's clock (lua-sources.ts CHAIN_FUNCTIONS). */
export function parseChainWriteReply(reply: unknown): ChainWriteOutcome {
  if (!Array.isArray(reply)) throw new Error(`unexpected reply from a Redis chain script: ${String(reply)}`);
  const [code, seq, hash, at] = reply as [number, string?, string?, string?];
  if (code === 1) return { ok: true };
  if (code === -1) return { ok: false, epochMoved: true };
  if (code === -2) {
    const [, serverMs, writerMs] = reply as [number, string, string];
    const why = clockSkew(Number(writerMs), Number(serverMs), 'Redis TIME') ?? 'its clock is too far from the server';
    throw new ClockSkewError(`redis: ${why}`, Number(serverMs));
  }
  return { ok: false, head: parseHead(seq, hash, at) };
}

export class AuditChain {
  /** Every write that extends the chain from this process runs inside it. */
  readonly mutex = new Mutex();
  private cached: ChainHead | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    /** This process's wall clock, which every chained write offers to the server's for the skew check. */
    private readonly clock: Clock = systemClock,
  ) {}

  /** The head as last seen by this process (read from Redis when unknown); the CAS catches staleness. */
  async head(): Promise<ChainHead> {
    return this.cached ?? (await this.readHead());
  }

  async readHead(): Promise<ChainHead> {
    const [seq, hash, at] = await this.redis.hmget(this.keys.eventHead, 'seq', 'hash', 'at');
    this.cached = parseHead(seq, hash, at);
    return this.cached;
  }

  /** Records what Redis says the head is (after a successful write, or from a CAS refusal). */
  remember(head: ChainHead): void {
    this.cached = head;
  }

  forget(): void {
    this.cached = null;
  }

  /**
   * Hashes `input` as the entry after `head`. Its `at` is raised to the head's when the caller's is
   * earlier (two processes stamp before they race), so seq order is time order. That `at` is decided
   * here, not in the script, because the hash covering it is computed here; it stays right because
   * the script commits only while the head's seq and hash are still the ones given, and that hash
   * covers the head entry's `at`. A head that moved sends the caller back here with the new one.
   */
  async prepare(head: ChainHead, input: NewAuditEvent, storeMs?: number): Promise<PreparedEntry> {
    const seq = head.seq + 1;
    // Read last, so that the server's check measures this clock and not the head's round trip.
    const lastAt = await this.lastAt(head);
    // `storeMs`: a kill refused for this clock, stamped with the server's (its reply said when).
    const now = storeMs ?? this.clock.now();
    if (storeMs !== undefined) input = restampedWith(input, storeMs);
    const at = chainedAt(input.at, lastAt, now);
    const symbol = input.symbol ?? null;
    const bodyJson = canonicalJson(input.body);
    // The stored body is canonical JSON; hash and return the parsed form so that what callers get
    // back is exactly what a later query or verify will see.
    const body = JSON.parse(bodyJson) as Record<string, unknown>;
    const hash = chainHash(head.hash, { seq, at, kind: input.kind, symbol, body });
    const event: AuditEvent = { seq, at, kind: input.kind, symbol, body, prev_hash: head.hash, hash };
    return {
      event,
      keys: [this.keys.eventHead, this.keys.eventEntry(seq), ...this.keys.eventIndexes(input.kind, symbol)],
      args: [
        head.seq,
        head.hash,
        seq,
        at,
        input.kind,
        symbol === null ? '0' : '1',
        symbol ?? '',
        bodyJson,
        head.hash,
        hash,
        now,
      ],
    };
  }

  /** The head entry's `at`; read from the entry itself only for a head written before it kept one. */
  private async lastAt(head: ChainHead): Promise<string | null> {
    if (head.at !== null || head.seq === 0) return head.at;
    return this.redis.hget(this.keys.eventEntry(head.seq), 'at');
  }
}

/** A stored entry's hash fields as an AuditEvent; null when the entry is absent. Throws on bad JSON. */
export function decodeEntry(fields: Record<string, string>): AuditEvent | null {
  if (fields.seq === undefined) return null;
  return {
    seq: Number(fields.seq),
    at: fields.at ?? '',
    kind: fields.kind ?? '',
    symbol: fields.symbol ?? null,
    body: JSON.parse(fields.body ?? 'null') as Record<string, unknown>,
    prev_hash: fields.prev_hash ?? '',
    hash: fields.hash ?? '',
  };
}

/** The raw fields of entries `seqs`, in one pipelined round trip ({} for an absent entry). */
export async function readEntries(
  redis: Redis,
  keys: RedisKeys,
  seqs: readonly number[],
): Promise<Record<string, string>[]> {
  const pipeline = redis.pipeline();
  for (const seq of seqs) pipeline.hgetall(keys.eventEntry(seq));
  const replies = (await pipeline.exec()) ?? [];
  return replies.map(([err, fields]) => {
    if (err) throw err;
    return fields as Record<string, string>;
  });
}

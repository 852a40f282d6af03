/**
 * verify() for the audit trail on Redis: re-hashes entries 1..head.seq in pipelined batches, checks
 * that each is in every query index it belongs to (a filtered query would silently skip it
 * otherwise), and holds the tail against the head. Entries are written once and the head moves in
 * the same script as the entry it points at, so reading the head first and then only entries at or
 * below it is one consistent view even while other processes append.
 */
import type { Redis } from 'ioredis';
import { beyondHead, ChainWalk } from '../../domain/chain-walk.js';
import type { ChainEntry, ChainProblem } from '../../domain/chain-walk.js';
import type { ChainVerification } from '../../ports/event-store.js';
import { decodeEntry, parseHead, readEntries } from './audit-chain.js';
import type { RedisKeys } from './keys.js';

/** Entries fetched per round trip while verifying. */
const VERIFY_BATCH = 500;

export async function verifyChain(redis: Redis, keys: RedisKeys): Promise<ChainVerification> {
  const [seq, hash, at] = await redis.hmget(keys.eventHead, 'seq', 'hash', 'at');
  const head = parseHead(seq, hash, at);
  // The floor after the head: a trim that lands between the two reads only raises it, and the walk
  // then starts past entries it would have found deleted.
  const [floorSeq, floorHash] = await redis.hmget(keys.eventFloor, 'seq', 'hash');
  const floor = floorSeq && floorHash ? { seq: Number(floorSeq), hash: floorHash } : undefined;
  const walk = new ChainWalk(head, floor);
  const broken = (firstBad: ChainProblem): ChainVerification => ({ ok: false, count: head.seq, firstBad });
  for (let start = (floor?.seq ?? 0) + 1; start <= head.seq; start += VERIFY_BATCH) {
    const seqs: number[] = [];
    for (let s = start; s <= Math.min(head.seq, start + VERIFY_BATCH - 1); s++) seqs.push(s);
    const problem = await checkBatch(redis, keys, walk, seqs);
    if (problem) return broken(problem);
  }
  const problem = walk.end() ?? (await entryBeyondHead(redis, keys, head.seq));
  return problem ? broken(problem) : { ok: true, count: head.seq, head: head.hash };
}

type Decoded = { seq: number; entry: ChainEntry | null } | { seq: number; unreadable: string };

async function checkBatch(
  redis: Redis,
  keys: RedisKeys,
  walk: ChainWalk,
  seqs: number[],
): Promise<ChainProblem | null> {
  const raw = await readEntries(redis, keys, seqs);
  const decoded = seqs.map((seq, i): Decoded => {
    try {
      const entry = decodeEntry(raw[i] ?? {});
      if (entry !== null && entry.seq !== seq) return { seq, unreadable: `entry claims seq ${entry.seq}` };
      return { seq, entry };
    } catch {
      return { seq, unreadable: 'body is not valid JSON' };
    }
  });
  const unindexed = await indexesMissing(redis, keys, decoded);
  for (const item of decoded) {
    if ('unreadable' in item) return walk.gapBefore(item.seq) ?? { seq: item.seq, reason: item.unreadable };
    if (item.entry === null) continue; // the walk names the gap at the next entry present, or at its end
    const problem = walk.next(item.entry);
    if (problem) return problem;
    const index = unindexed.get(item.seq);
    if (index !== undefined) return { seq: item.seq, reason: `entry is missing from the query index ${index}` };
  }
  return null;
}

/** For each entry absent from an index it belongs to, the first such index (one pipelined round trip). */
async function indexesMissing(redis: Redis, keys: RedisKeys, decoded: Decoded[]): Promise<Map<number, string>> {
  const asked: Array<{ seq: number; index: string }> = [];
  const pipeline = redis.pipeline();
  for (const item of decoded) {
    if (!('entry' in item) || item.entry === null) continue;
    for (const index of keys.eventIndexes(item.entry.kind, item.entry.symbol)) {
      asked.push({ seq: item.seq, index });
      pipeline.zscore(index, String(item.seq));
    }
  }
  const missing = new Map<number, string>();
  if (asked.length === 0) return missing;
  const replies = (await pipeline.exec()) ?? [];
  replies.forEach(([err, score], i) => {
    if (err) throw err;
    const q = asked[i];
    if (q !== undefined && score === null && !missing.has(q.seq)) missing.set(q.seq, q.index);
  });
  return missing;
}

/**
 * An entry under head.seq + 1 while the head still says head.seq: written behind the scripts' back
 * (or the head was moved back). Read in one MULTI with the head, so a concurrent append, which moves
 * both at once, is never mistaken for it.
 */
async function entryBeyondHead(redis: Redis, keys: RedisKeys, headSeq: number): Promise<ChainProblem | null> {
  const replies = await redis
    .multi()
    .hget(keys.eventHead, 'seq')
    .exists(keys.eventEntry(headSeq + 1))
    .exec();
  const [seqReply, existsReply] = replies ?? [];
  if (!seqReply || !existsReply) throw new Error('verify: the transaction was aborted');
  if (seqReply[0]) throw seqReply[0];
  if (existsReply[0]) throw existsReply[0];
  const stillHead = Number(seqReply[1] ?? 0) === headSeq;
  return stillHead && existsReply[1] === 1 ? beyondHead(headSeq + 1, headSeq) : null;
}

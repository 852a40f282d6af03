/**
 * The control record on Redis (a hash at `<prefix>control`). `compareAndSet` reads the record and the
 * audit chain head, hashes the audit entry, and commits record + entry + notification in one Lua
 * script that refuses when the epoch or the chain head moved. A moved head is retried here; a moved
 * epoch goes back to the caller, whose decision was made on the old record.
 */
import type { Redis } from 'ioredis';
import type { ChainHead } from '../../domain/chain-walk.js';
import type { ControlRecord, SystemState } from '../../domain/control.js';
import { INITIAL_CONTROL_RECORD, SYSTEM_STATES } from '../../domain/control.js';
import type { ControlChange, ControlStore, ControlWriteResult } from '../../ports/control-store.js';
import type { NewAuditEvent } from '../../ports/event-store.js';
import type { AuditChain } from './audit-chain.js';
import { parseChainWriteReply, parseHead } from './audit-chain.js';
import { retryCas } from './cas-retry.js';
import type { RedisKeys } from './keys.js';
import { controlWriteScript } from './lua-sources.js';
import type { Notifier } from './notifier.js';

export class RedisControlStore implements ControlStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly chain: AuditChain,
    private readonly notifier: Notifier,
  ) {}

  async read(): Promise<ControlRecord> {
    return decodeRecord(await this.redis.hgetall(this.keys.control));
  }

  /**
   * Writes the initial record (running, epoch 0) into a brand-new store, atomically. A store whose
   * audit trail has entries but no control record has lost data (a flush, a restore without it): it
   * must not quietly read as `running` — a latched kill would be undone — so opening it fails.
   */
  async seed(): Promise<void> {
    const reply = await this.redis.eval(
      SEED_SCRIPT,
      2,
      this.keys.control,
      this.keys.eventHead,
      INITIAL_CONTROL_RECORD.changed_at,
    );
    if (typeof reply === 'string' && reply.startsWith('audit:')) {
      throw new Error(
        `the Redis store has an audit trail (${reply.slice('audit:'.length)} entries) but no control record: refusing to treat it as running. ` +
          'Restore the missing data, or inspect it with `tcs audit verify` and re-create the record deliberately.',
      );
    }
  }

  compareAndSet(change: ControlChange): Promise<ControlWriteResult> {
    return this.chain.mutex.run(() =>
      // Retries only when the audit chain's head moved (another writer appended an event); an epoch
      // that moved is the caller's to decide again on.
      retryCas(`control write at epoch ${change.expectedEpoch}`, async () => {
        const { record, head } = await this.snapshot();
        if (record.epoch !== change.expectedEpoch) return { written: false, current: record } as const;
        return (await this.write(record, change.next, head, change.audit)) ? ({ written: true } as const) : undefined;
      }),
    );
  }

  subscribe(listener: (record: ControlRecord) => void): Promise<() => Promise<void>> {
    return this.notifier.subscribe(this.keys.controlChannel, (message) => {
      listener(decodeRecord(JSON.parse(message) as Record<string, unknown>));
    });
  }

  /** The record and the chain head read together (MULTI), so the CAS starts from one instant. */
  private async snapshot(): Promise<{ record: ControlRecord; head: ChainHead }> {
    const replies = await this.redis
      .multi()
      .hgetall(this.keys.control)
      .hmget(this.keys.eventHead, 'seq', 'hash', 'at')
      .exec();
    const [recordReply, headReply] = replies ?? [];
    if (!recordReply || !headReply) throw new Error('control snapshot: the transaction was aborted');
    if (recordReply[0]) throw recordReply[0];
    if (headReply[0]) throw headReply[0];
    const [seq, hash, at] = headReply[1] as (string | null)[];
    return { record: decodeRecord(recordReply[1] as Record<string, string>), head: parseHead(seq, hash, at) };
  }

  /** Runs the control script; true when committed, false when the epoch or the head moved. */
  private async write(
    current: ControlRecord,
    change: ControlRecord | null,
    head: ChainHead,
    audit: NewAuditEvent,
  ): Promise<boolean> {
    const changed = change !== null;
    const next = change ?? current;
    const entry = await this.chain.prepare(head, audit);
    const reply = await controlWriteScript.run(
      this.redis,
      [this.keys.control, ...entry.keys],
      [
        current.epoch,
        changed ? '1' : '0',
        next.state,
        next.epoch,
        next.reason === null ? '0' : '1',
        next.reason ?? '',
        next.changed_at,
        this.keys.controlChannel,
        JSON.stringify(next),
        ...entry.args,
      ],
    );
    const outcome = parseChainWriteReply(reply);
    if (outcome.ok) this.chain.remember({ seq: entry.event.seq, hash: entry.event.hash, at: entry.event.at });
    else if ('head' in outcome) this.chain.remember(outcome.head);
    return outcome.ok;
  }
}

/** KEYS: control record, event head. ARGV: changed_at. Seeds a new store; reports a lost record. */
const SEED_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 'ok' end
local seq = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
if seq > 0 then return 'audit:' .. seq end
redis.call('HSET', KEYS[1], 'state', 'running', 'epoch', 0, 'changed_at', ARGV[1])
return 'seeded'
`;

/** A stored (or published) record. The store seeds it at open, so a missing one means lost data. */
function decodeRecord(fields: Record<string, unknown>): ControlRecord {
  if (fields.state === undefined)
    throw new Error('the control record is missing from Redis (data lost since the store was opened?)');
  const state = String(fields.state);
  if (!(SYSTEM_STATES as readonly string[]).includes(state))
    throw new Error(`stored control state is invalid: ${state}`);
  const reason = fields.reason;
  return {
    state: state as SystemState,
    epoch: Number(fields.epoch ?? 0),
    reason: reason === undefined || reason === null ? null : String(reason),
    changed_at: String(fields.changed_at ?? INITIAL_CONTROL_RECORD.changed_at),
  };
}

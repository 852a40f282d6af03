/**
 * The control record on Redis (a hash at `<prefix>control`). Every apply/resetKill reads the record
 * and the audit chain head, lets the control statechart decide (decideControl — the only place the
 * rules live), hashes the audit entry, and commits record + entry + notification in one Lua
 * compare-and-set that refuses when the epoch or the chain head moved; then it re-reads and retries.
 */
import type { Redis } from 'ioredis';
import { decideControl } from '../../../machines/control.machine.js';
import type {
  ControlActor,
  ControlApplyResult,
  ControlEvent,
  ControlRecord,
  SystemState,
} from '../../domain/control.js';
import { INITIAL_CONTROL_RECORD, SYSTEM_STATES } from '../../domain/control.js';
import type { ControlStore } from '../../ports/control-store.js';
import type { NewAuditEvent } from '../../ports/event-store.js';
import type { AuditChain, ChainHead } from './audit-chain.js';
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

  apply(event: ControlEvent, who: ControlActor): Promise<ControlApplyResult> {
    return this.chain.mutex.run(() =>
      retryCas(`control ${event.type}`, async () => {
        const { record, head } = await this.snapshot();
        const decision = decideControl(record.state, event);
        const changed = decision.outcome === 'changed';
        const next: ControlRecord = changed
          ? { state: decision.to, epoch: record.epoch + 1, reason: event.reason, changed_at: who.at }
          : record;
        const audit: NewAuditEvent = {
          kind: 'control',
          at: who.at,
          symbol: null,
          body: {
            event: event.type,
            reason: event.reason,
            outcome: decision.outcome,
            from: decision.from,
            to: decision.to,
            epoch: next.epoch,
            actor: who.actor,
          },
        };
        const written = await this.write(record, next, changed, head, audit);
        return written ? { ...decision, event, record: next } : undefined;
      }),
    );
  }

  resetKill(who: ControlActor, reason: string): Promise<ControlRecord> {
    return this.chain.mutex.run(() =>
      retryCas('control kill reset', async () => {
        const { record, head } = await this.snapshot();
        if (record.state !== 'killed') return record;
        const next: ControlRecord = { state: 'running', epoch: record.epoch + 1, reason, changed_at: who.at };
        const audit: NewAuditEvent = {
          kind: 'kill_reset',
          at: who.at,
          symbol: null,
          body: { reason, from: record.state, to: next.state, epoch: next.epoch, actor: who.actor },
        };
        return (await this.write(record, next, true, head, audit)) ? next : undefined;
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
      .hmget(this.keys.eventHead, 'seq', 'hash')
      .exec();
    const [recordReply, headReply] = replies ?? [];
    if (!recordReply || !headReply) throw new Error('control snapshot: the transaction was aborted');
    if (recordReply[0]) throw recordReply[0];
    if (headReply[0]) throw headReply[0];
    const [seq, hash] = headReply[1] as (string | null)[];
    return { record: decodeRecord(recordReply[1] as Record<string, string>), head: parseHead(seq, hash) };
  }

  /** Runs the control script; true when committed, false when the epoch or the head moved. */
  private async write(
    current: ControlRecord,
    next: ControlRecord,
    changed: boolean,
    head: ChainHead,
    audit: NewAuditEvent,
  ): Promise<boolean> {
    const entry = this.chain.prepare(head, audit);
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
    if (outcome.ok) this.chain.remember({ seq: entry.event.seq, hash: entry.event.hash });
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

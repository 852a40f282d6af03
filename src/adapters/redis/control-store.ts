/**
 * The control record on Redis (a hash at `<prefix>control`). `compareAndSet` reads the record and the
 * audit chain head, hashes the audit entry, and commits record + entry + notification in one Lua
 * script that refuses when the epoch or the chain head moved. A moved head is retried here; a moved
 * epoch goes back to the caller, whose decision was made on the old record.
 */
import type { Redis } from 'ioredis';
import type { ChainHead } from '../../domain/chain-walk.js';
import type { ControlRecord, SystemState } from '../../domain/control.js';
import { randomUUID } from 'node:crypto';
import { SYSTEM_STATES, initialControlRecord } from '../../domain/control.js';
import type { ControlChange, ControlStore, ControlWriteResult } from '../../ports/control-store.js';
import type { NewAuditEvent } from '../../ports/event-store.js';
import type { AuditChain } from './audit-chain.js';
import { parseChainWriteReply, parseHead } from './audit-chain.js';
import { retryCas } from './cas-retry.js';
import type { RedisKeys } from './keys.js';
import { adoptScript, controlWriteScript, initialiseScript } from './lua-sources.js';
import { ClockSkewError, EMPTY_STORE_MESSAGE, StoreFaultError } from '../../ports/store-errors.js';
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
   * Creates the record of a brand-new store; gives a store from before identities its identity. An
   * audit trail without a record means lost data: a fault, never a new store.
   */
  async initialise(at: string, mac?: (record: ControlRecord) => string): Promise<'created' | 'exists'> {
    return this.runInitialise(at, 'create', mac) as Promise<'created' | 'exists'>;
  }

  /** At open: only the identity of a store from before identities; creates nothing. */
  async upgrade(): Promise<void> {
    await this.runInitialise(new Date(0).toISOString(), 'upgrade');
  }

  private async runInitialise(
    at: string,
    mode: 'create' | 'upgrade',
    mac?: (record: ControlRecord) => string,
  ): Promise<string> {
    const storeId = randomUUID();
    // The script creates exactly initialControlRecord(storeId, at), so its MAC is made here.
    const signed = mac?.(initialControlRecord(storeId, at)) ?? '';
    const reply = String(
      await initialiseScript.run(this.redis, [this.keys.control, this.keys.eventHead], [at, storeId, mode, signed]),
    );
    if (reply.startsWith('audit:')) {
      throw new StoreFaultError(
        'empty',
        `the Redis store has an audit trail (${reply.slice('audit:'.length)} entries) but no control record: it lost data, ` +
          'so it is not initialised as new. Inspect it with `tcs audit verify`; accept it deliberately with `tcs store adopt --reason "…"`',
      );
    }
    return reply;
  }

  adopt(record: ControlRecord, audit: NewAuditEvent): Promise<void> {
    return this.chain.mutex
      .run(() =>
        retryCas('store adoption', async () => {
          const head = await this.chain.readHead();
          const entry = await this.chain.prepare(head, audit);
          const fields = Object.entries(record).flatMap(([k, v]) => (v === null ? [] : [k, String(v)]));
          const reply = await adoptScript.run(
            this.redis,
            [this.keys.control, ...entry.keys],
            [fields.length + 1, ...fields, this.keys.controlChannel, JSON.stringify(record), ...entry.args],
          );
          const outcome = parseChainWriteReply(reply);
          if (outcome.ok) this.chain.remember({ seq: entry.event.seq, hash: entry.event.hash, at: entry.event.at });
          else if ('head' in outcome) this.chain.remember(outcome.head);
          return outcome.ok ? true : undefined;
        }),
      )
      .then(() => undefined);
  }

  compareAndSet(change: ControlChange): Promise<ControlWriteResult> {
    return this.chain.mutex.run(
      () =>
        // Retries only when the audit chain's head moved (another writer appended an event); an epoch
        // that moved is the caller's to decide again on.
        retryCas(
          `control write at epoch ${change.expectedEpoch}`,
          async () => {
            const { record, head } = await this.snapshot();
            if (record.epoch !== change.expectedEpoch || record.store_id !== change.expectedStoreId)
              return { written: false, current: record } as const;
            return (await this.writeStamped(record, change, head)) ? ({ written: true } as const) : undefined;
          },
          change.timeoutMs,
        ),
      change.priority === true,
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

  /**
   * The write, and for a kill refused for this process's clock the same write again stamped with the
   * server's clock (a kill is never refused for a clock: ControlChange.priority).
   */
  private async writeStamped(current: ControlRecord, change: ControlChange, head: ChainHead): Promise<boolean> {
    try {
      return await this.write(current, change.next, head, change.audit);
    } catch (err) {
      if (change.priority !== true || !(err instanceof ClockSkewError) || err.storeMs === undefined) throw err;
      return this.write(current, change.next, head, change.audit, err.storeMs);
    }
  }

  /** Runs the control script; true when committed, false when the epoch or the head moved. */
  private async write(
    current: ControlRecord,
    change: ControlRecord | null,
    head: ChainHead,
    audit: NewAuditEvent,
    storeMs?: number,
  ): Promise<boolean> {
    const changed = change !== null;
    const next = change ?? current;
    const entry = await this.chain.prepare(head, audit, storeMs);
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
        change?.mac ?? '',
        current.store_id,
      ],
    );
    const outcome = parseChainWriteReply(reply);
    if (outcome.ok) this.chain.remember({ seq: entry.event.seq, hash: entry.event.hash, at: entry.event.at });
    else if ('head' in outcome) this.chain.remember(outcome.head);
    return outcome.ok;
  }
}

/** A stored (or published) record; a missing one (or one without identity) is an empty store. */
function decodeRecord(fields: Record<string, unknown>): ControlRecord {
  if (fields.state === undefined || fields.store_id === undefined)
    throw new StoreFaultError('empty', EMPTY_STORE_MESSAGE);
  const state = String(fields.state);
  if (!(SYSTEM_STATES as readonly string[]).includes(state))
    throw new Error(`stored control state is invalid: ${state}`);
  const reason = fields.reason;
  const adoptedFrom = fields.adopted_from;
  return {
    state: state as SystemState,
    epoch: Number(fields.epoch ?? 0),
    reason: reason === undefined || reason === null ? null : String(reason),
    changed_at: String(fields.changed_at ?? new Date(0).toISOString()),
    store_id: String(fields.store_id),
    adopted_from: adoptedFrom === undefined || adoptedFrom === null ? null : String(adoptedFrom),
    ...(typeof fields.mac === 'string' ? { mac: fields.mac } : {}),
  };
}

/**
 * The command queue on Redis: a hash per command (idempotent by id: the enqueue script writes it
 * only when absent), a sorted set of pending ids by enqueue order and one of leased ids by lease
 * expiry. Leases use a sorted set rather than Streams + XAUTOCLAIM because XAUTOCLAIM measures
 * idle time with Redis's own clock, while the port hands leases the caller's `now`. Completing with
 * an entry marks the command done and appends its audit entry in one script, extending the chain the
 * event store extends (audit-chain.ts: the same head compare-and-set, the same in-process mutex).
 */
import type { Redis } from 'ioredis';
import { decodeStoredCommand, encodeCommandPayload } from '../../domain/commands.js';
import type { Command, CommandStatus, StoredCommand } from '../../domain/commands.js';
import { CommandQueueFullError } from '../../ports/command-queue.js';
import type { ClaimOptions, CommandQueue, EnqueueOptions } from '../../ports/command-queue.js';
import type { AuditEvent, NewAuditEvent } from '../../ports/event-store.js';
import type { AuditChain } from './audit-chain.js';
import { parseChainWriteReply, parseHead } from './audit-chain.js';
import { retryCas } from './cas-retry.js';
import type { RedisKeys } from './keys.js';
import {
  claimCommandsScript,
  completeCommandScript,
  completeWithEntryScript,
  enqueueCommandScript,
} from './lua-sources.js';
import type { Notifier } from './notifier.js';

export class RedisCommandQueue implements CommandQueue {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly notifier: Notifier,
    private readonly chain: AuditChain,
  ) {}

  async enqueue(
    command: Command,
    options: EnqueueOptions = {},
  ): Promise<{ record: StoredCommand; duplicate: boolean }> {
    const payload = encodeCommandPayload(command);
    const reply = (await enqueueCommandScript.run(
      this.redis,
      [this.keys.command(command.id), this.keys.commandsPending, this.keys.commandsOrder, this.keys.commandsLeased],
      [
        command.id,
        command.type,
        payload,
        command.enqueued_at,
        this.keys.commandsChannel,
        options.maxOpen === undefined ? '' : Math.floor(options.maxOpen),
      ],
    )) as [number, string[]];
    if (reply[0] === 2) throw new CommandQueueFullError(options.maxOpen ?? 0);
    return { duplicate: reply[0] === 1, record: decodeCommand(pairs(reply[1])) };
  }

  async claim(consumer: string, options: ClaimOptions): Promise<StoredCommand[]> {
    if (options.max < 1) return [];
    const reply = (await claimCommandsScript.run(
      this.redis,
      [this.keys.commandsPending, this.keys.commandsLeased],
      [
        this.keys.commandPrefix,
        Math.floor(options.now),
        Math.max(0, Math.floor(options.leaseMs)),
        Math.floor(options.max),
        consumer,
      ],
    )) as string[][];
    return reply.map((fields) => decodeCommand(pairs(fields)));
  }

  async complete(id: string, result: Record<string, unknown>, at: string): Promise<StoredCommand> {
    const reply = (await completeCommandScript.run(
      this.redis,
      [this.keys.command(id), this.keys.commandsPending, this.keys.commandsLeased],
      [id, JSON.stringify(result), at],
    )) as string[] | null;
    if (reply === null) throw new Error(`unknown command id: ${id}`);
    return decodeCommand(pairs(reply));
  }

  completeWithEntry(
    id: string,
    result: Record<string, unknown>,
    at: string,
    entry: NewAuditEvent,
  ): Promise<{ record: StoredCommand; entry: AuditEvent | null }> {
    return this.chain.mutex.run(() =>
      retryCas('command completion', async () => {
        const prepared = await this.chain.prepare(await this.chain.head(), entry);
        const reply = (await completeWithEntryScript.run(
          this.redis,
          [this.keys.command(id), this.keys.commandsPending, this.keys.commandsLeased, ...prepared.keys],
          [id, JSON.stringify(result), at, ...prepared.args],
        )) as [number, ...unknown[]] | null;
        if (reply === null) throw new Error(`unknown command id: ${id}`);
        const [code, ...rest] = reply;
        if (code === -2) parseChainWriteReply(reply); // throws the writer's clock skew
        if (code === 0) {
          const [seq, hash, headAt] = rest as [string, string, string];
          this.chain.remember(parseHead(seq, hash, headAt));
          return undefined;
        }
        const record = decodeCommand(pairs(rest[0] as string[]));
        if (code === 2) return { record, entry: null };
        const { seq, hash, at: entryAt } = prepared.event;
        this.chain.remember({ seq, hash, at: entryAt });
        return { record, entry: prepared.event };
      }),
    );
  }

  async get(id: string): Promise<StoredCommand | null> {
    const fields = await this.redis.hgetall(this.keys.command(id));
    return fields.id === undefined ? null : decodeCommand(fields);
  }

  /** A walk over the command hashes (SCAN, so Redis is never blocked): for `tcs audit verify`, not a hot path. */
  async completedIds(): Promise<string[]> {
    const ids: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(
        cursor,
        'MATCH',
        `${escapeGlob(this.keys.commandPrefix)}*`,
        'COUNT',
        1000,
      );
      cursor = next;
      if (keys.length === 0) continue;
      const pipeline = this.redis.pipeline();
      for (const key of keys) pipeline.hmget(key, 'id', 'status');
      for (const [err, fields] of (await pipeline.exec()) ?? []) {
        if (err) throw err;
        const [id, status] = fields as [string | null, string | null];
        if (id !== null && status === 'done') ids.push(id);
      }
    } while (cursor !== '0');
    return ids;
  }

  subscribe(listener: () => void): Promise<() => Promise<void>> {
    return this.notifier.subscribe(this.keys.commandsChannel, () => listener());
  }
}

/** `text` matched literally by a SCAN pattern (a prefix may hold glob characters). */
function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]]/g, '\\$&');
}

/** A flat [field, value, …] reply as an object. */
function pairs(flat: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i] as string] = flat[i + 1] as string;
  return out;
}

/**
 * The port's view of a stored command, its payload decoded against its type's schema (malformed
 * when it is not); internal fields (order, lease, consumer) stay inside.
 */
function decodeCommand(fields: Record<string, string>): StoredCommand {
  return decodeStoredCommand({
    id: fields.id ?? '',
    type: fields.type ?? '',
    payload: fields.payload ?? '',
    enqueued_at: fields.enqueued_at ?? '',
    status: (fields.status ?? 'pending') as CommandStatus,
    attempts: Number(fields.attempts ?? 0),
    result: fields.result === undefined ? null : (JSON.parse(fields.result) as Record<string, unknown>),
    completed_at: fields.completed_at ?? null,
  });
}

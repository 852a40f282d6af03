/**
 * The command queue on Redis: a hash per command (idempotent by id: the enqueue script writes it
 * only when absent), a sorted set of pending ids by enqueue order and one of leased ids by lease
 * expiry. Leases use a sorted set rather than Streams + XAUTOCLAIM because XAUTOCLAIM measures
 * idle time with Redis's own clock, while the port hands leases the caller's `now`.
 */
import type { Redis } from 'ioredis';
import { decodeStoredCommand, encodeCommandPayload } from '../../domain/commands.js';
import type { Command, CommandStatus, StoredCommand } from '../../domain/commands.js';
import type { ClaimOptions, CommandQueue } from '../../ports/command-queue.js';
import type { RedisKeys } from './keys.js';
import { claimCommandsScript, completeCommandScript, enqueueCommandScript } from './lua-sources.js';
import type { Notifier } from './notifier.js';

export class RedisCommandQueue implements CommandQueue {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly notifier: Notifier,
  ) {}

  async enqueue(command: Command): Promise<{ record: StoredCommand; duplicate: boolean }> {
    const payload = encodeCommandPayload(command);
    const reply = (await enqueueCommandScript.run(
      this.redis,
      [this.keys.command(command.id), this.keys.commandsPending, this.keys.commandsOrder],
      [command.id, command.type, payload, command.enqueued_at, this.keys.commandsChannel],
    )) as [number, string[]];
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

  async get(id: string): Promise<StoredCommand | null> {
    const fields = await this.redis.hgetall(this.keys.command(id));
    return fields.id === undefined ? null : decodeCommand(fields);
  }

  subscribe(listener: () => void): Promise<() => Promise<void>> {
    return this.notifier.subscribe(this.keys.commandsChannel, () => listener());
  }
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

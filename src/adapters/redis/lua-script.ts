/**
 * Runs a Lua script by its SHA1 (EVALSHA) and falls back to EVAL when the server does not know it
 * yet (first use, or after a restart or SCRIPT FLUSH), so the script text crosses the wire rarely.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export type LuaArg = string | number;

export class LuaScript {
  readonly sha: string;

  constructor(
    readonly name: string,
    readonly source: string,
  ) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly LuaArg[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return await redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}

/**
 * The Redis store: every store port over one main connection (plus a subscriber connection opened
 * only when someone subscribes), all keys under one prefix. This file only wires the parts; each
 * port lives in its own module and the atomic steps in lua-sources.ts.
 */
import type { Redis } from 'ioredis';
import { performance } from 'node:perf_hooks';
import { clockSkew } from '../../domain/clock-skew.js';
import { systemClock } from '../../ports/clock.js';
import type { Clock } from '../../ports/clock.js';
import { DEFAULT_STORE_TIMEOUT_MS } from '../../ports/store.js';
import type { Store } from '../../ports/store.js';
import { guardStore } from '../guard-store.js';
import { AuditChain } from './audit-chain.js';
import { RedisCommandQueue } from './command-queue.js';
import type { ErrorReporter } from './connection.js';
import {
  attachErrorListener,
  createConnection,
  defaultErrorReporter,
  describeRedis,
  redactorFor,
} from './connection.js';
import { RedisControlStore } from './control-store.js';
import { RedisEventStore } from './event-store.js';
import { evictionRisk } from './eviction-policy.js';
import { redisFailure } from './failures.js';
import { DEFAULT_PREFIX, redisKeys } from './keys.js';
import { RedisKeyValueStore } from './kv.js';
import { RedisTradingLease } from './trading-lease.js';
import { Notifier, quitQuietly } from './notifier.js';

export interface RedisStoreOptions {
  /** `redis://[:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /** Every key and channel starts with it; default `tcs:`. */
  prefix?: string;
  /** Where connection errors go (already stripped of the password); default: throttled stderr. */
  onError?: ErrorReporter;
  /** Deadline of every command in ms (default DEFAULT_STORE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** This process's wall clock, checked against Redis `TIME` on every audit write (tests skew it). */
  clock?: Clock;
}

/** Connects (rejecting with a password-free message when Redis does not answer) and builds the store. */
export async function openRedisStore(options: RedisStoreOptions): Promise<Store> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const description = describeRedis(options.url, prefix);
  const redact = redactorFor(options.url);
  const report = options.onError ?? defaultErrorReporter(description, redact);
  const redis = createConnection(options.url, report, options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS);
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(
      `cannot connect to Redis at ${description}: ${redact(err instanceof Error ? err.message : String(err))}`,
    );
  }
  const store = new RedisStore(redis, prefix, description, report, options.clock);
  try {
    await store.control.upgrade();
  } catch (err) {
    await store.close();
    throw err;
  }
  return guardStore(store, redisFailure(description, redact));
}

class RedisStore implements Store {
  readonly kind = 'redis' as const;
  readonly control: RedisControlStore;
  readonly events: RedisEventStore;
  readonly commands: RedisCommandQueue;
  readonly kv: RedisKeyValueStore;
  readonly lease: RedisTradingLease;
  private readonly notifier: Notifier;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly redis: Redis,
    prefix: string,
    readonly description: string,
    report: ErrorReporter,
    private readonly clock: Clock = systemClock,
  ) {
    const keys = redisKeys(prefix);
    const chain = new AuditChain(redis, keys, clock);
    this.notifier = new Notifier(() => {
      // The subscriber issues its first SUBSCRIBE while still connecting, so it keeps a queue.
      const subscriber = redis.duplicate({ enableOfflineQueue: true });
      attachErrorListener(subscriber, report);
      return subscriber;
    }, report);
    this.events = new RedisEventStore(redis, keys, chain);
    this.control = new RedisControlStore(redis, keys, chain, this.notifier);
    this.commands = new RedisCommandQueue(redis, keys, this.notifier, chain);
    this.kv = new RedisKeyValueStore(redis, keys);
    this.lease = new RedisTradingLease(redis, keys);
  }

  async ping(): Promise<number> {
    const started = performance.now();
    await this.redis.ping();
    return performance.now() - started;
  }

  evictionRisk(): Promise<string | null> {
    return evictionRisk(this.redis);
  }

  async clockSkew(): Promise<string | null> {
    const [seconds, micros] = await this.redis.time();
    return clockSkew(this.clock.now(), Number(seconds) * 1000 + Number(micros) / 1000, 'Redis TIME');
  }

  close(): Promise<void> {
    this.closing ??= Promise.all([this.notifier.close(), quitQuietly(this.redis)]).then(() => undefined);
    return this.closing;
  }
}

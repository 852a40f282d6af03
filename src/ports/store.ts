/**
 * The store as a whole: one backend (SQLite file or Redis) providing every store port over a shared
 * connection, so that a control change and its audit event can be written in one atomic step.
 */
import type { CommandQueue } from './command-queue.js';
import type { ControlStore } from './control-store.js';
import type { EventStore } from './event-store.js';
import type { KeyValueStore } from './key-value-store.js';
import type { TradingLease } from './trading-lease.js';

/**
 * How long one store command may take before it fails with StoreUnavailableError (STORE_TIMEOUT_MS):
 * well under the 1 s in which /health and the kill switch promise an answer, far above a healthy
 * round trip (well under 1 ms on loopback Redis or a local SQLite file).
 */
export const DEFAULT_STORE_TIMEOUT_MS = 500;

export interface Store {
  readonly kind: 'sqlite' | 'redis';
  /** Where it lives, with any password removed (safe to log). */
  readonly description: string;
  readonly control: ControlStore;
  readonly events: EventStore;
  readonly commands: CommandQueue;
  readonly kv: KeyValueStore;
  readonly lease: TradingLease;
  /**
   * Round-trip to the backend; resolves with the latency in ms, rejects when unreachable. Every
   * method rejects with StoreUnavailableError when the backend fails or passes its deadline, and
   * with StoreFaultError when the backend answers but is not the store it was (empty, …).
   */
  ping(): Promise<number>;
  /**
   * Why the backend may drop what we wrote on its own — a Redis whose `maxmemory-policy` evicts
   * keys when memory runs out (the audit trail, the control record, the lease), or whose policy
   * cannot be read — or null when it keeps everything until we delete it (always, for SQLite).
   */
  evictionRisk(): Promise<string | null>;
  /**
   * Why this process's wall clock may not stamp audit entries — it is further than AUDIT_CLOCK_SKEW_MS
   * from the store's one clock (Redis `TIME`; the host's, as its kernel stamps files, for SQLite) — or
   * null when it is near enough (or the store keeps no clock: a simulation's private file). The same
   * judgement every chained write makes (src/domain/clock-skew.ts), asked ahead of one.
   */
  clockSkew(): Promise<string | null>;
  close(): Promise<void>;
}

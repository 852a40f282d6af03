/**
 * Key-value port for small JSON documents the two processes share: the trading process's heartbeat,
 * portfolio snapshot and metrics, and the paper venue's account. Each `set` is atomic per key.
 */
export interface KeyValueStore {
  get<T = unknown>(key: string): Promise<T | null>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

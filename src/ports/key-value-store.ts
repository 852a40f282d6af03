/**
 * Key-value port for small JSON documents the two processes share: the trading process's heartbeat,
 * portfolio snapshot and metrics, and the paper venue's account. Each `set` is atomic per key. The
 * shared documents have one schema and version each (src/domain/documents/registry.ts).
 */
export interface KeyValueStore {
  /**
   * The stored JSON value, null when absent. Deliberately `unknown`: a shared document is read
   * through readDocument (src/ports/documents.ts), which validates it; nothing casts a store's bytes.
   */
  get(key: string): Promise<unknown>;
  /**
   * With `fence` (the trading lease's fencing token, src/ports/trading-lease.ts), the write happens
   * only while no newer token has been issued; otherwise nothing is written and StoreFaultError
   * 'fenced' is raised.
   */
  set(key: string, value: unknown, fence?: number, options?: KeyValueSetOptions): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface KeyValueSetOptions {
  /**
   * The write keeps no order with this process's other writes and never waits behind them (on SQLite:
   * not queued behind writes waiting for another connection's lock). For writes that stand alone and
   * must not be held back by a flood of others: the safety monitor's write probe.
   */
  atOnce?: boolean;
}

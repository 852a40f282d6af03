/**
 * The Redis key and channel layout, in one place so every module (and the tests' tamper hook) agree
 * on it. Everything lives under the store's prefix, so several stores can share one database.
 * User-supplied parts (event kinds, symbols, command ids) are URI-encoded where they sit between
 * separators, so a `:` inside a symbol can never make two index keys collide.
 */

export const DEFAULT_PREFIX = 'tcs:';

export interface RedisKeys {
  readonly prefix: string;
  /** Hash: the control record (state, epoch, reason, changed_at). */
  readonly control: string;
  /** Pub/sub channel carrying the new control record (JSON) after every change. */
  readonly controlChannel: string;
  /** Hash: the audit chain head {seq, hash}; absent means the empty chain. */
  readonly eventHead: string;
  /** Hash per audit entry: seq, at, kind, symbol (absent when null), body (canonical JSON), prev_hash, hash. */
  eventEntry(seq: number): string;
  /** Hash: the hot window's floor {seq, hash}, the last entry archived and trimmed; absent: none. */
  readonly eventFloor: string;
  /** Sorted set of seqs (score = seq) per kind, per symbol and per kind + symbol. */
  eventsByKind(kind: string): string;
  eventsBySymbol(symbol: string): string;
  eventsByKindSymbol(kind: string, symbol: string): string;
  /** Every index an entry with this kind and symbol belongs to. */
  eventIndexes(kind: string, symbol: string | null): string[];
  /** Hash per command (the record plus internal order/lease fields). */
  command(id: string): string;
  /** The prefix of `command(id)`, for Lua scripts that derive record keys from ids. */
  readonly commandPrefix: string;
  /** Sorted set of pending command ids, score = enqueue order. */
  readonly commandsPending: string;
  /** Sorted set of claimed command ids, score = lease expiry (epoch ms, the caller's clock). */
  readonly commandsLeased: string;
  /** Counter giving each new command its enqueue order. */
  readonly commandsOrder: string;
  /** Pub/sub channel poked after every enqueue. */
  readonly commandsChannel: string;
  /** String key holding one JSON document. */
  kv(key: string): string;
  /** String `<fence>:<holder>` with a PX expiry: the trading lease. */
  readonly lease: string;
  /** Counter: the newest fencing token issued. */
  readonly leaseFence: string;
}

const enc = encodeURIComponent;

export function redisKeys(prefix: string): RedisKeys {
  const byKind = (kind: string): string => `${prefix}events:kind:${enc(kind)}`;
  const bySymbol = (symbol: string): string => `${prefix}events:symbol:${enc(symbol)}`;
  const byKindSymbol = (kind: string, symbol: string): string =>
    `${prefix}events:kind-symbol:${enc(kind)}:${enc(symbol)}`;
  const commandPrefix = `${prefix}cmd:id:`;
  return {
    prefix,
    control: `${prefix}control`,
    controlChannel: `${prefix}control`,
    eventHead: `${prefix}events:head`,
    eventEntry: (seq) => `${prefix}events:entry:${seq}`,
    eventFloor: `${prefix}events:floor`,
    eventsByKind: byKind,
    eventsBySymbol: bySymbol,
    eventsByKindSymbol: byKindSymbol,
    eventIndexes: (kind, symbol) =>
      symbol === null ? [byKind(kind)] : [byKind(kind), bySymbol(symbol), byKindSymbol(kind, symbol)],
    command: (id) => `${commandPrefix}${id}`,
    commandPrefix,
    commandsPending: `${prefix}cmd:pending`,
    commandsLeased: `${prefix}cmd:leased`,
    commandsOrder: `${prefix}cmd:order`,
    commandsChannel: `${prefix}commands`,
    kv: (key) => `${prefix}kv:${key}`,
    lease: `${prefix}lease`,
    leaseFence: `${prefix}lease:fence`,
  };
}

/**
 * JSON text for inspection events, which hold live actor snapshots: those can be cyclic, deep, or
 * carry bigints and functions, and plain JSON.stringify throws on the first two kinds. Objects with
 * toJSON (actor refs, dates) serialise as they ask; a cycle or anything deeper than `depth` becomes
 * a marker string, so one odd snapshot never takes the inspector (or the trading process) down.
 */
export function toSafeJson(value: unknown, depth = 10): string {
  return JSON.stringify(plain(value, depth, []));
}

function plain(value: unknown, depth: number, ancestors: object[]): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'function') return { type: value.name || 'function' };
  if (typeof value === 'symbol') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  const own = value as { toJSON?: () => unknown };
  if (typeof own.toJSON === 'function') return plain(own.toJSON(), depth, ancestors);
  if (ancestors.includes(value)) return '[Circular]';
  if (depth <= 0) return Array.isArray(value) ? '[Array]' : '[Object]';
  const inside = [...ancestors, value];
  if (Array.isArray(value)) return value.map((item) => plain(item, depth - 1, inside) ?? null);
  if (value instanceof Map) return plain(Object.fromEntries(value), depth, ancestors);
  if (value instanceof Set) return plain([...value], depth, ancestors);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = plain(item, depth - 1, inside);
  return out;
}

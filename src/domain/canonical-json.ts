/**
 * Canonical JSON: object keys sorted recursively, no whitespace, `undefined` fields dropped.
 * Used wherever bytes must be reproducible: audit hash chain and order tokens.
 *
 * Written straight to text rather than by building a key-sorted copy for JSON.stringify: every
 * decision entry goes through here, and the copy was a twentieth of a simulated cycle in
 * allocations. The output is exactly JSON.stringify of that copy (test/domain/canonical-json):
 * keys in the copy's order (array-index keys first, numerically; then sorted), objects of any class
 * are their own enumerable keys (a Date or a Map prints `{}`), `undefined`,
 * functions and symbols are dropped from objects and `null` in arrays, and a non-finite number or
 * a bigint throws.
 */
export function canonicalJson(value: unknown): string {
  return write(value) as string;
}

function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return quoted(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot encode ${value}`);
      // A finite number prints as JSON.stringify prints it (-0 as "0" too), without the call.
      return `${value}`;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value); // throws, as JSON.stringify does for every bigint
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? writeArray(value) : writeObject(value as Record<string, unknown>);
    default:
      return undefined; // undefined, functions, symbols
  }
}

function writeArray(items: readonly unknown[]): string {
  const n = items.length;
  if (n === 0) return '[]';
  let out = `[${write(items[0]) ?? 'null'}`;
  for (let i = 1; i < n; i++) out += `,${write(items[i]) ?? 'null'}`;
  return `${out}]`;
}

function writeObject(object: Record<string, unknown>): string {
  const keys = keyOrder(object);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const text = write(object[key]);
    if (text === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${quoted(key)}:${text}`;
  }
  return `${out}}`;
}

/**
 * Quoted strings and keys, remembered: the same few dozen keys and values (agents, symbols, codes,
 * messages) recur in every entry, and a lookup is a third of what quoting costs. Bounded, since a
 * string can be data (an id, a token): when full it starts over, so strings that keep recurring are
 * soon remembered again.
 */
const QUOTED = new Map<string, string>();
const QUOTED_MAX = 4_096;

function quoted(text: string): string {
  let out = QUOTED.get(text);
  if (out === undefined) {
    out = JSON.stringify(text);
    if (QUOTED.size >= QUOTED_MAX) QUOTED.clear();
    QUOTED.set(text, out);
  }
  return out;
}

/**
 * Key orders already worked out, by the object's first key: each list holds pairs of (the keys as
 * Object.keys gave them, their canonical order). Objects of one kind are built the same way every
 * time, so their keys come in the same order, and comparing them one by one (the same interned
 * strings) is far cheaper than sorting them again. Bounded like QUOTED: keys can be data (a symbol).
 */
const ORDERS = new Map<string, string[][]>();
let ordersHeld = 0;
const ORDERS_MAX = 1_024;

/**
 * The key order of the definition's sorted copy: JavaScript puts array-index keys ("0", "17") first,
 * in numeric order, whatever order they were inserted in; the other keys follow in sorted order.
 * The array returned may be shared: never changed by the caller.
 */
function keyOrder(object: Record<string, unknown>): readonly string[] {
  const keys = Object.keys(object);
  const n = keys.length;
  if (n < 2) return keys;
  const first = keys[0]!;
  let known = ORDERS.get(first);
  if (known !== undefined) {
    search: for (let j = 0; j < known.length; j += 2) {
      const seen = known[j]!;
      if (seen.length !== n) continue;
      for (let i = 1; i < n; i++) if (seen[i] !== keys[i]) continue search;
      return known[j + 1]!;
    }
  }
  if (ordersHeld >= ORDERS_MAX) {
    ORDERS.clear();
    ordersHeld = 0;
    known = undefined;
  }
  if (known === undefined) {
    known = [];
    ORDERS.set(first, known);
  }
  const sorted = sortedKeys(keys);
  known.push(keys, sorted);
  ordersHeld++;
  return sorted;
}

/** The canonical order of `keys`: sorted, then the array-index keys moved to the front, numerically. */
function sortedKeys(keys: readonly string[]): string[] {
  const sorted = [...keys].sort();
  if (!sorted.some(isIndex)) return sorted;
  const indices = sorted.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...sorted.filter((k) => !isIndex(k))];
}

function isIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  if (!(first >= 48 && first <= 57)) return false;
  return /^(0|[1-9]\d*)$/.test(key) && Number(key) < 4_294_967_295;
}

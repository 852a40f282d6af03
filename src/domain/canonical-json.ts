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
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonical JSON cannot encode ${value}`);
      return JSON.stringify(value);
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
  let out = '[';
  for (let i = 0; i < items.length; i++) out += (i === 0 ? '' : ',') + (write(items[i]) ?? 'null');
  return `${out}]`;
}

/**
 * The key order of the definition's sorted copy: JavaScript puts array-index keys ("0", "17") first,
 * in numeric order, whatever order they were inserted in; the other keys follow in sorted order.
 */
function keyOrder(object: Record<string, unknown>): string[] {
  const keys = Object.keys(object).sort();
  if (!keys.some(isIndex)) return keys;
  const indices = keys.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  return [...indices, ...keys.filter((k) => !isIndex(k))];
}

function isIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  if (!(first >= 48 && first <= 57)) return false;
  return /^(0|[1-9]\d*)$/.test(key) && Number(key) < 4_294_967_295;
}

/**
 * Quoted keys, remembered: the same few dozen keys recur in every entry. Bounded, since a key can
 * also be data (a symbol, an id); past the bound new keys are simply quoted each time.
 */
const QUOTED = new Map<string, string>();
const QUOTED_MAX = 4_096;

function quotedKey(key: string): string {
  let quoted = QUOTED.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (QUOTED.size < QUOTED_MAX) QUOTED.set(key, quoted);
  }
  return quoted;
}

function writeObject(object: Record<string, unknown>): string {
  let out = '{';
  let first = true;
  for (const key of keyOrder(object)) {
    const text = write(object[key]);
    if (text === undefined) continue;
    out += `${first ? '' : ','}${quotedKey(key)}:${text}`;
    first = false;
  }
  return `${out}}`;
}
